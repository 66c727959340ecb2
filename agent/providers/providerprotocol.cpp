#include "providerprotocol.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Loopscope {

// Most providers wrap errors as {"error": {"message": ...}} or {"error": "..."}.
QString ProviderProtocol::errorMessage(const QByteArray &body) const
{
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    const QJsonValue error = object.value(u"error"_s);
    if (error.isString())
        return error.toString();
    const QString message = error.toObject().value(u"message"_s).toString();
    if (!message.isEmpty())
        return message;
    return object.value(u"message"_s).toString();
}

} // namespace Loopscope
