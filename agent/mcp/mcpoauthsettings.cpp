#include "agent/mcp/mcpoauthsettings.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::McpOAuthSettings)
};
} // namespace

QJsonObject McpOAuthSettings::toJson(bool withSecret) const
{
    QJsonObject json;
    if (!clientId.isEmpty())
        json.insert("clientId"_L1, clientId);
    if (withSecret && !clientSecret.isEmpty())
        json.insert("clientSecret"_L1, clientSecret);
    if (!clientMetadataUrl.isEmpty())
        json.insert("clientMetadataUrl"_L1, clientMetadataUrl.toString());
    if (!scope.isEmpty())
        json.insert("scope"_L1, scope);
    if (!privateKeyFile.isEmpty())
        json.insert("privateKeyFile"_L1, privateKeyFile);
    if (algorithm != "ES256"_L1)
        json.insert("algorithm"_L1, algorithm);
    if (grant == Grant::ClientCredentials)
        json.insert("grant"_L1, u"client_credentials"_s);
    return json;
}

std::optional<McpOAuthSettings> McpOAuthSettings::fromJson(const QJsonValue &json, QString *error)
{
    McpOAuthSettings settings;
    if (json.isUndefined() || json.isNull())
        return settings;
    if (!json.isObject()) {
        *error = Tr::tr("has an “oauth” entry that is not an object.");
        return std::nullopt;
    }
    const QJsonObject object = json.toObject();
    for (const auto &key : {"clientId"_L1, "clientSecret"_L1, "clientMetadataUrl"_L1, "scope"_L1, "grant"_L1,
                            "privateKeyFile"_L1, "algorithm"_L1}) {
        if (object.contains(key) && !object.value(key).isString()) {
            *error = Tr::tr("has an “oauth” entry whose “%1” is not a string.").arg(key);
            return std::nullopt;
        }
    }
    settings.clientId = object.value("clientId"_L1).toString();
    settings.clientSecret = object.value("clientSecret"_L1).toString();
    settings.scope = object.value("scope"_L1).toString().simplified();
    settings.privateKeyFile = object.value("privateKeyFile"_L1).toString();
    settings.algorithm = object.value("algorithm"_L1).toString(u"ES256"_s);
    if (settings.algorithm != "ES256"_L1 && settings.algorithm != "RS256"_L1) {
        *error = Tr::tr("has an OAuth signing algorithm “%1” that is not supported (ES256 or RS256).")
                     .arg(settings.algorithm);
        return std::nullopt;
    }
    const QString metadata = object.value("clientMetadataUrl"_L1).toString();
    if (!metadata.isEmpty()) {
        settings.clientMetadataUrl = QUrl(metadata, QUrl::StrictMode);
        if (settings.clientMetadataUrl.scheme() != "https"_L1
            || settings.clientMetadataUrl.path().isEmpty()) {
            *error = Tr::tr("has a client metadata URL that is not an https:// address with a path: “%1”.")
                         .arg(metadata);
            return std::nullopt;
        }
    }
    const QString grant = object.value("grant"_L1).toString(u"authorization_code"_s);
    if (grant == "client_credentials"_L1) {
        settings.grant = Grant::ClientCredentials;
    } else if (grant != "authorization_code"_L1) {
        *error = Tr::tr("has an unknown OAuth grant “%1” (authorization_code or client_credentials).")
                     .arg(grant);
        return std::nullopt;
    }
    return settings;
}

} // namespace Loopscope
