#include "agent/mcp/clientassertion.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QUuid>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>

using namespace Qt::StringLiterals;

namespace Loopscope::ClientAssertion {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::ClientAssertion)
};

QByteArray base64Url(const QByteArray &data)
{
    return data.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

template<typename T, void (*Free)(T *)>
using Owned = std::unique_ptr<T, decltype([](T *p) { Free(p); })>;

// ES256 signatures are R and S, 32 bytes each (RFC 7518 §3.4); OpenSSL gives DER.
std::optional<QByteArray> derToRaw(const QByteArray &der)
{
    const auto *bytes = reinterpret_cast<const unsigned char *>(der.constData());
    Owned<ECDSA_SIG, ECDSA_SIG_free> signature(d2i_ECDSA_SIG(nullptr, &bytes, der.size()));
    if (!signature)
        return std::nullopt;
    const BIGNUM *r = nullptr;
    const BIGNUM *s = nullptr;
    ECDSA_SIG_get0(signature.get(), &r, &s);
    QByteArray raw(64, '\0');
    auto *out = reinterpret_cast<unsigned char *>(raw.data());
    if (BN_bn2binpad(r, out, 32) != 32 || BN_bn2binpad(s, out + 32, 32) != 32)
        return std::nullopt;
    return raw;
}

} // namespace

QJsonObject claims(const QString &clientId, const QString &audience)
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    return {{u"iss"_s, clientId},  {u"sub"_s, clientId},
            {u"aud"_s, audience},  {u"iat"_s, now},
            {u"exp"_s, now + 300}, {u"jti"_s, QUuid::createUuid().toString(QUuid::WithoutBraces)}};
}

std::optional<QByteArray> sign(const QByteArray &pem, const QString &algorithm, const QJsonObject &claims,
                               QString *error)
{
    const bool ecdsa = algorithm == "ES256"_L1;
    if (!ecdsa && algorithm != "RS256"_L1) {
        *error = Tr::tr("the signing algorithm “%1” is not supported (ES256 or RS256)").arg(algorithm);
        return std::nullopt;
    }
    Owned<BIO, BIO_free_all> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    Owned<EVP_PKEY, EVP_PKEY_free> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    if (!key) {
        *error = Tr::tr("the private key is not a PEM private key");
        return std::nullopt;
    }
    if ((EVP_PKEY_base_id(key.get()) == EVP_PKEY_EC) != ecdsa) {
        *error = Tr::tr("the private key does not fit the algorithm %1").arg(algorithm);
        return std::nullopt;
    }
    const QJsonObject header{{u"alg"_s, algorithm}, {u"typ"_s, u"JWT"_s}};
    const QByteArray input = base64Url(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.'
                             + base64Url(QJsonDocument(claims).toJson(QJsonDocument::Compact));
    Owned<EVP_MD_CTX, EVP_MD_CTX_free> context(EVP_MD_CTX_new());
    size_t length = 0;
    const auto *data = reinterpret_cast<const unsigned char *>(input.constData());
    if (!context || EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1
        || EVP_DigestSign(context.get(), nullptr, &length, data, size_t(input.size())) != 1) {
        *error = Tr::tr("the assertion could not be signed");
        return std::nullopt;
    }
    QByteArray signature(qsizetype(length), '\0');
    if (EVP_DigestSign(context.get(), reinterpret_cast<unsigned char *>(signature.data()), &length, data,
                       size_t(input.size()))
        != 1) {
        *error = Tr::tr("the assertion could not be signed");
        return std::nullopt;
    }
    signature.resize(qsizetype(length));
    if (ecdsa) {
        const std::optional<QByteArray> raw = derToRaw(signature);
        if (!raw) {
            *error = Tr::tr("the assertion could not be signed");
            return std::nullopt;
        }
        signature = *raw;
    }
    return input + '.' + base64Url(signature);
}

} // namespace Loopscope::ClientAssertion
