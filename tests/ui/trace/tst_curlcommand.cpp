#include "tests/ui/trace/tracesamples.h"
#include "ui/trace/curlcommand.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// Runs the command in a real POSIX shell with curl replaced by a function
// that prints each argument it receives, one per line, then "<end>".
QStringList argumentsTheShellPasses(const QString &command)
{
    QProcess shell;
    const QString script
        = u"curl() { for argument in \"$@\"; do printf '%s\\n<end>\\n' \"$argument\"; done; }\n"_s + command
          + u'\n';
    shell.start(u"/bin/sh"_s, {u"-c"_s, script});
    if (!shell.waitForFinished(10'000) || shell.exitCode() != 0)
        return {u"<shell failed>"_s, QString::fromUtf8(shell.readAllStandardError())};
    QStringList arguments = QString::fromUtf8(shell.readAllStandardOutput()).split(u"\n<end>\n"_s);
    arguments.removeLast(); // after the last separator
    return arguments;
}

} // namespace

class CurlCommandTest : public QObject
{
    Q_OBJECT

private slots:
    void shellQuotingKeepsEveryCharacter_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("a plain word") << u"hello"_s;
        QTest::newRow("an empty string") << QString();
        QTest::newRow("a single quote") << u"it's"_s;
        QTest::newRow("only single quotes") << u"'''"_s;
        QTest::newRow("double quotes, dollars and backticks") << u"\"$HOME\" `id` $(id) \\n"_s;
        QTest::newRow("a line break and a tab") << u"one\ntwo\tthree"_s;
        QTest::newRow("glob characters and a semicolon") << u"*.md; rm -rf ~ &"_s;
        QTest::newRow("non-ASCII text") << u"Zürich 東京 🌦"_s;
    }

    void shellQuotingKeepsEveryCharacter()
    {
        QFETCH(QString, text);
        const QString quoted = Ui::CurlCommand::shellQuoted(text);
        QVERIFY(quoted.startsWith(u'\'') && quoted.endsWith(u'\''));
        QCOMPARE(argumentsTheShellPasses(u"curl "_s + quoted), QStringList{text});
    }

    void theCommandReplaysTheRecordedRequest()
    {
        const QJsonObject request = TraceSamples::wireRequest();
        const QString command = Ui::CurlCommand::fromRequest(request);

        const QString body = QString::fromUtf8(
            QJsonDocument(request.value(u"body"_s).toObject()).toJson(QJsonDocument::Compact));
        QVERIFY(body.contains(u"it's due"_s)); // the quote the shell must survive
        const QStringList expected{TraceSamples::Url,
                                   u"--header"_s,
                                   u"Authorization: [redacted]"_s,
                                   u"--header"_s,
                                   u"Content-Type: application/json"_s,
                                   u"--no-buffer"_s,
                                   u"--data-binary"_s,
                                   body};
        QCOMPARE(argumentsTheShellPasses(command), expected);
        // One option per line, so a pasted command reads well: the URL, two headers, --no-buffer, the body.
        QCOMPARE(command.count(u" \\\n  "_s), 4);
        QVERIFY(command.startsWith(u"curl 'https://api.openai.com/v1/chat/completions' \\\n"_s));
    }

    void credentialsNeverReachTheCommand_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("secret");
        QTest::newRow("a bearer token") << u"Authorization"_s << u"Bearer sk-live-0123456789"_s;
        QTest::newRow("an Anthropic key") << u"x-api-key"_s << u"sk-ant-0123456789"_s;
        QTest::newRow("a Gemini key in lower case") << u"x-goog-api-key"_s << u"AIzaSy0123456789"_s;
        QTest::newRow("an Azure key in upper case") << u"API-KEY"_s << u"azure0123456789"_s;
        QTest::newRow("a cookie") << u"Cookie"_s << u"session=0123456789"_s;
    }

    void credentialsNeverReachTheCommand()
    {
        QFETCH(QString, header);
        QFETCH(QString, secret);
        // A recording that missed its redaction: the command still masks the value.
        QJsonObject request = TraceSamples::wireRequest();
        request.insert(u"headers"_s, QJsonObject{{header, secret}, {u"Accept"_s, u"text/event-stream"_s}});

        const QString command = Ui::CurlCommand::fromRequest(request);
        QVERIFY2(!command.contains(secret), qPrintable(command));
        QVERIFY(argumentsTheShellPasses(command).contains(header + u": [redacted]"_s));
        QVERIFY(argumentsTheShellPasses(command).contains(u"Accept: text/event-stream"_s));
    }

    void keysInTheUrlAreMasked_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("secret");
        QTest::newRow("a Gemini key parameter")
            << u"https://generativelanguage.googleapis.com/v1beta/models/gemini:streamGenerateContent?alt=sse&key=AIzaSySecret123"_s
            << u"AIzaSySecret123"_s;
        QTest::newRow("an api_key parameter in capitals")
            << u"https://example.com/v1?API_KEY=hunter2hunter2"_s << u"hunter2hunter2"_s;
        QTest::newRow("a password in the user info")
            << u"https://user:pa55word@example.com/v1/chat"_s << u"pa55word"_s;
    }

    void keysInTheUrlAreMasked()
    {
        QFETCH(QString, url);
        QFETCH(QString, secret);
        QJsonObject request = TraceSamples::wireRequest();
        request.insert(u"url"_s, url);
        const QString command = Ui::CurlCommand::fromRequest(request);
        QVERIFY2(!command.contains(secret), qPrintable(command));
        QVERIFY(command.contains(u"example.com"_s) || command.contains(u"googleapis.com"_s));
    }

    void aUrlWithoutSecretsIsKeptVerbatim()
    {
        QJsonObject request = TraceSamples::wireRequest();
        const QString url = u"http://localhost:11434/api/chat?x=a%20b&y=%2B"_s;
        request.insert(u"url"_s, url);
        QCOMPARE(argumentsTheShellPasses(Ui::CurlCommand::fromRequest(request)).value(0), url);
    }

    void theMethodIsSpelledOutOnlyWhenCurlCannotInferIt_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("withBody");
        QTest::addColumn<bool>("spelledOut");
        QTest::newRow("POST with a body") << u"POST"_s << true << false;
        QTest::newRow("GET without a body") << u"GET"_s << false << false;
        QTest::newRow("lower-case post with a body") << u"post"_s << true << false;
        QTest::newRow("PUT with a body") << u"PUT"_s << true << true;
        QTest::newRow("POST without a body") << u"POST"_s << false << true;
    }

    void theMethodIsSpelledOutOnlyWhenCurlCannotInferIt()
    {
        QFETCH(QString, method);
        QFETCH(bool, withBody);
        QFETCH(bool, spelledOut);
        QJsonObject request = TraceSamples::wireRequest();
        request.insert(u"method"_s, method);
        if (!withBody)
            request.remove(u"body"_s);
        const QStringList arguments = argumentsTheShellPasses(Ui::CurlCommand::fromRequest(request));
        QCOMPARE(arguments.contains(u"--request"_s), spelledOut);
        QCOMPARE(arguments.contains(u"--data-binary"_s), withBody);
        if (spelledOut)
            QCOMPARE(arguments.at(arguments.indexOf(u"--request"_s) + 1), method.toUpper());
    }

    void aStringBodyIsSentAsItIs()
    {
        QJsonObject request = TraceSamples::wireRequest();
        request.insert(u"body"_s, u"line one\nline 'two'"_s);
        const QStringList arguments = argumentsTheShellPasses(Ui::CurlCommand::fromRequest(request));
        QCOMPARE(arguments.constLast(), u"line one\nline 'two'"_s);
        QVERIFY(!arguments.contains(u"--no-buffer"_s));
    }

    void aRequestWithoutUrlGivesNoCommand()
    {
        QJsonObject request = TraceSamples::wireRequest();
        request.remove(u"url"_s);
        QVERIFY(Ui::CurlCommand::fromRequest(request).isEmpty());
        QVERIFY(Ui::CurlCommand::fromRequest({}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(CurlCommandTest)
#include "tst_curlcommand.moc"
