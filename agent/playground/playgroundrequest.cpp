#include "agent/playground/playgroundrequest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace Loopscope {

QString PlaygroundRequest::toText(const ModelRequest &request)
{
    return QString::fromUtf8(QJsonDocument(request.toJson()).toJson(QJsonDocument::Indented));
}

std::optional<ModelRequest> PlaygroundRequest::fromText(const QString &text, QString *error)
{
    const auto fail = [error](const QString &message) -> std::optional<ModelRequest> {
        *error = message;
        return std::nullopt;
    };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(tr("The request is not valid JSON at character %1: %2.")
                        .arg(parseError.offset)
                        .arg(parseError.errorString()));
    if (!document.isObject())
        return fail(tr("The request must be a JSON object."));
    const QJsonObject json = document.object();
    const QJsonValue messages = json.value(u"messages"_s);
    if (!messages.isArray() || messages.toArray().isEmpty())
        return fail(tr("The request needs a non-empty \"messages\" array."));
    const QJsonArray list = messages.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject message = list.at(i).toObject();
        if (!list.at(i).isObject() || !roleFromName(message.value(u"role"_s).toString()))
            return fail(tr("Message %1 needs a \"role\": system, user, assistant or tool.").arg(i + 1));
        for (const QJsonValue &call : message.value(u"toolCalls"_s).toArray()) {
            if (call.toObject().value(u"name"_s).toString().isEmpty())
                return fail(tr("Message %1 has a tool call without a \"name\".").arg(i + 1));
        }
    }
    if (json.contains(u"tools"_s) && !json.value(u"tools"_s).isArray())
        return fail(tr("\"tools\" must be an array."));
    if (json.contains(u"options"_s) && !json.value(u"options"_s).isObject())
        return fail(tr("\"options\" must be an object."));
    return ModelRequest::fromJson(json);
}

} // namespace Loopscope
