#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    A JWT the client signs with its own key to authenticate at a token
    endpoint (RFC 7523, private_key_jwt): for servers used headless whose
    authorization server knows the client's public key. Signing is OpenSSL's
    (libcrypto, which Qt Network already loads for TLS); ES256 and RS256.
*/
namespace ClientAssertion {

// The compact JWS of \a claims signed with the PEM private key \a pem; nullopt with \a error when the
// key cannot be read or does not fit \a algorithm.
std::optional<QByteArray> sign(const QByteArray &pem, const QString &algorithm, const QJsonObject &claims,
                               QString *error);

// iss and sub the client id, aud the authorization server's issuer, a five-minute lifetime and a jti.
QJsonObject claims(const QString &clientId, const QString &audience);

} // namespace ClientAssertion

} // namespace Loopscope
