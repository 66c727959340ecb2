// The process tst_autosave kills. Usage: autosavechild <folder> <completedTurns>
//
// A ChatSession with an Autosaver on <folder> talks to a streaming
// OpenAI-compatible model on 127.0.0.1 that answers the first
// <completedTurns> questions and stalls in the middle of the next answer.
// Each question is sent once the previous turn was saved. On stdout:
// "saved N" after the Nth save, "turn N started" once the model has begun
// streaming the answer it will never finish.

#include "agent/session/autosaver.h"
#include "agent/session/chatsession.h"
#include "tests/support/fakehttpserver.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QTimer>

#include <cstdio>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

void say(const QString &line)
{
    const QByteArray bytes = line.toUtf8() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

QByteArray chunk(const QString &content, const QString &finishReason = {})
{
    QJsonObject delta;
    if (!content.isEmpty())
        delta.insert(u"content"_s, content);
    QJsonObject choice{{u"index"_s, 0}, {u"delta"_s, delta}};
    choice.insert(u"finish_reason"_s,
                  finishReason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(finishReason));
    const QJsonObject body{{u"id"_s, u"chatcmpl-child"_s},
                           {u"object"_s, u"chat.completion.chunk"_s},
                           {u"model"_s, u"child-model"_s},
                           {u"choices"_s, QJsonArray{choice}}};
    return FakeHttpServer::sseEvent(QJsonDocument(body).toJson(QJsonDocument::Compact));
}

int userMessages(const HttpRequestRecord &request)
{
    int count = 0;
    const QJsonArray messages = request.json().value(u"messages"_s).toArray();
    for (const QJsonValue &message : messages) {
        if (message[u"role"_s].toString() == u"user")
            ++count;
    }
    return count;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    bool ok = false;
    const int completedTurns = arguments.size() == 3 ? arguments.at(2).toInt(&ok) : 0;
    if (!ok || completedTurns < 1) {
        std::fputs("usage: autosavechild <folder> <completedTurns>\n", stderr);
        return 2;
    }
    const QString folder = arguments.at(1);

    FakeHttpServer server;
    if (!server.listen()) {
        std::fputs("autosavechild: cannot listen on 127.0.0.1\n", stderr);
        return 1;
    }
    server.setHandler([completedTurns](const HttpRequestRecord &request, HttpExchange &exchange) {
        const int turn = userMessages(request);
        exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
        if (turn > completedTurns) {
            exchange.send(chunk(u"This answer never"_s));
            exchange.stall();
            say(u"turn %1 started"_s.arg(turn));
            return;
        }
        // A few pieces, so the answer is assembled from a real stream.
        const QString answer = u"Answer %1: the saved turn, whole."_s.arg(turn);
        for (qsizetype i = 0; i < answer.size(); i += 7)
            exchange.send(chunk(answer.mid(i, 7)), 1);
        exchange.send(chunk({}, u"stop"_s), 1);
        exchange.send("data: [DONE]\n\n", 1);
        exchange.end();
    });

    QNetworkAccessManager network;
    ChatSession session(&network);
    AgentConfig config;
    config.model.stream = true;
    SessionSetup setup = session.setup();
    setup.loop = config;
    session.apply(setup);
    ProviderProfile profile;
    profile.id = u"autosave-child"_s;
    profile.name = u"Child"_s;
    profile.kind = ProviderKind::OpenAi;
    profile.baseUrl = server.baseUrl().resolved(QUrl(u"/v1"_s));
    profile.model = u"child-model"_s;
    session.apply(session.setup().withProvider(profile, u"sk-child-0123456789"_s));
    if (session.provider() != profile) {
        std::fputs("autosavechild: the provider was refused\n", stderr);
        return 1;
    }

    Autosaver autosaver(&session, folder);
    int saves = 0;
    const auto ask = [&session](int turn) {
        if (!session.send(u"Question %1"_s.arg(turn)))
            QCoreApplication::exit(3);
    };
    QObject::connect(&autosaver, &Autosaver::saved, &app, [&](const QString &path) {
        ++saves;
        say(u"saved %1 %2"_s.arg(QString::number(saves), path));
        ask(saves + 1);
    });
    QObject::connect(&autosaver, &Autosaver::failed, &app, [](const QString &error) {
        say(u"failed %1"_s.arg(error));
        QCoreApplication::exit(4);
    });
    QTimer::singleShot(0, &app, [&ask] { ask(1); });
    // Never outlive a test that forgot to kill it.
    QTimer::singleShot(60'000, &app, [] { QCoreApplication::exit(5); });
    return app.exec();
}
