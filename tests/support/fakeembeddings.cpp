#include "tests/support/fakeembeddings.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Loopscope::Testing {

QList<float> conceptVector(const QString &text)
{
    static const QList<QStringList> concepts{
        {u"car"_s, u"cars"_s, u"automobile"_s, u"vehicle"_s, u"motor"_s, u"engine"_s, u"tyres"_s,
         u"driving"_s},
        {u"cook"_s, u"cooking"_s, u"recipe"_s, u"pasta"_s, u"kitchen"_s, u"boil"_s, u"bake"_s, u"oven"_s},
        {u"money"_s, u"refund"_s, u"payment"_s, u"invoice"_s, u"price"_s, u"paid"_s},
        {u"network"_s, u"proxy"_s, u"server"_s, u"router"_s, u"internet"_s},
        {u"weather"_s, u"rain"_s, u"sunny"_s, u"forecast"_s},
    };
    static const QRegularExpression word(u"\\w+"_s);
    QList<float> vector(ConceptDimensions, 0.0f);
    vector.last() = 0.05f;
    for (auto it = word.globalMatch(text.toLower()); it.hasNext();) {
        const QString found = it.next().captured();
        for (qsizetype i = 0; i < concepts.size(); ++i) {
            if (concepts.at(i).contains(found))
                vector[i] += 1.0f;
        }
    }
    return vector;
}

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
