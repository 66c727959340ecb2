#include "tests/support/fakeembeddings.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Loopscope::Testing {

QStringList embeddingsInputs(ProviderKind kind, const QJsonObject &body)
{
    QStringList texts;
    if (kind == ProviderKind::Gemini) {
        for (const QJsonValue &request : body.value(u"requests"_s).toArray()) {
            const QJsonArray parts = request[u"content"_s][u"parts"_s].toArray();
            texts.append(parts.first()[u"text"_s].toString());
        }
        return texts;
    }
    for (const QJsonValue &input : body.value(u"input"_s).toArray())
        texts.append(input.toString());
    return texts;
}

QJsonObject embeddingsResponse(ProviderKind kind, const QList<QList<float>> &vectors)
{
    const auto array = [](const QList<float> &vector) {
        QJsonArray values;
        for (float value : vector)
            values.append(double(value));
        return values;
    };
    QJsonArray items;
    switch (kind) {
    case ProviderKind::OpenAi:
    case ProviderKind::Anthropic:
        for (qsizetype i = vectors.size() - 1; i >= 0; --i)
            items.append(QJsonObject{
                {u"object"_s, u"embedding"_s}, {u"index"_s, int(i)}, {u"embedding"_s, array(vectors.at(i))}});
        return {{u"object"_s, u"list"_s}, {u"data"_s, items}};
    case ProviderKind::Ollama:
        for (const QList<float> &vector : vectors)
            items.append(array(vector));
        return {{u"embeddings"_s, items}};
    case ProviderKind::Gemini:
        for (const QList<float> &vector : vectors)
            items.append(QJsonObject{{u"values"_s, array(vector)}});
        return {{u"embeddings"_s, items}};
    }
    return {};
}

FakeHttpServer::Handler embeddingsHandler(ProviderKind kind, VectorOf vectorOf)
{
    return [kind, vectorOf = std::move(vectorOf)](const HttpRequestRecord &request, HttpExchange &exchange) {
        QList<QList<float>> vectors;
        for (const QString &text : embeddingsInputs(kind, request.json()))
            vectors.append(vectorOf(text));
        exchange.respondJson(200, embeddingsResponse(kind, vectors));
    };
}

} // namespace Loopscope::Testing
