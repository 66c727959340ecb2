#include "agent/config/providerprofile.h"

#include <QSettings>

using namespace Qt::StringLiterals;

namespace Loopscope {

// "http://h:1/v1/" and "http://h:1/v1" are one endpoint.
static QUrl normalisedEndpoint(QUrl url)
{
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path);
    return url.adjusted(QUrl::RemoveUserInfo | QUrl::NormalizePathSegments);
}

bool reachesRecordedProvider(const ProviderProfile &profile, const RecordedProvider &recorded)
{
    if (providerKindName(profile.kind) != recorded.kind)
        return false;
    return recorded.baseUrl.isEmpty()
           || normalisedEndpoint(profile.effectiveBaseUrl()) == normalisedEndpoint(recorded.baseUrl);
}

std::optional<ProviderProfile> profileForRecordedProvider(const std::optional<ProviderProfile> &current,
                                                          const QList<ProviderProfile> &profiles,
                                                          const RecordedProvider &recorded)
{
    if (current && reachesRecordedProvider(*current, recorded))
        return current;
    for (const ProviderProfile &profile : profiles) {
        if (reachesRecordedProvider(profile, recorded))
            return profile;
    }
    return std::nullopt;
}

bool ProviderProfile::isLocal() const
{
    if (kind == ProviderKind::Ollama)
        return true;
    const QString host = effectiveBaseUrl().host();
    return host == u"localhost" || host == u"127.0.0.1" || host == u"::1" || host == u"[::1]";
}

ProviderProfileStore::ProviderProfileStore(QSettings *settings)
    : m_settings(settings)
{
    Q_ASSERT(settings);
}

QList<ProviderProfile> ProviderProfileStore::profiles() const
{
    QList<ProviderProfile> result;
    m_settings->beginGroup(u"providers"_s);
    const QStringList ids = m_settings->childGroups();
    m_settings->endGroup();
    for (const QString &id : ids) {
        if (auto p = profile(id))
            result.append(*p);
    }
    return result;
}

std::optional<ProviderProfile> ProviderProfileStore::profile(const QString &id) const
{
    m_settings->beginGroup(u"providers/"_s + id);
    const auto kind = providerKindFromName(m_settings->value(u"kind"_s).toString());
    ProviderProfile p;
    p.id = id;
    p.name = m_settings->value(u"name"_s, id).toString();
    p.baseUrl = QUrl(m_settings->value(u"baseUrl"_s).toString());
    p.model = m_settings->value(u"model"_s).toString();
    p.apiKeyEnv = m_settings->value(u"apiKeyEnv"_s).toString();
    p.defaults.stream = m_settings->value(u"stream"_s, true).toBool();
    if (m_settings->contains(u"temperature"_s))
        p.defaults.temperature = m_settings->value(u"temperature"_s).toDouble();
    if (m_settings->contains(u"topP"_s))
        p.defaults.topP = m_settings->value(u"topP"_s).toDouble();
    if (m_settings->contains(u"maxOutputTokens"_s))
        p.defaults.maxOutputTokens = m_settings->value(u"maxOutputTokens"_s).toInt();
    if (m_settings->contains(u"inputPricePerMTok"_s))
        p.inputPricePerMTok = m_settings->value(u"inputPricePerMTok"_s).toDouble();
    if (m_settings->contains(u"outputPricePerMTok"_s))
        p.outputPricePerMTok = m_settings->value(u"outputPricePerMTok"_s).toDouble();
    if (m_settings->contains(u"contextWindow"_s))
        p.contextWindow = m_settings->value(u"contextWindow"_s).toLongLong();
    if (m_settings->value(u"keyStorage"_s).toString() == u"file")
        p.keyStorage = ProviderProfile::KeyStorage::File;
    m_settings->endGroup();
    if (!kind)
        return std::nullopt;
    p.kind = *kind;
    p.defaults.model = p.model;
    return p;
}

void ProviderProfileStore::save(const ProviderProfile &profile)
{
    // Without an id the group would be "providers/" itself: removing it would delete every profile.
    if (profile.id.isEmpty()) {
        qWarning("ProviderProfileStore::save: the profile \"%s\" has no id and was not saved",
                 qUtf8Printable(profile.name));
        return;
    }
    m_settings->remove(u"providers/"_s + profile.id);
    m_settings->beginGroup(u"providers/"_s + profile.id);
    m_settings->setValue(u"kind"_s, providerKindName(profile.kind));
    m_settings->setValue(u"name"_s, profile.name);
    if (!profile.baseUrl.isEmpty())
        m_settings->setValue(u"baseUrl"_s, profile.baseUrl.toString());
    m_settings->setValue(u"model"_s, profile.model);
    if (!profile.apiKeyEnv.isEmpty())
        m_settings->setValue(u"apiKeyEnv"_s, profile.apiKeyEnv);
    m_settings->setValue(u"stream"_s, profile.defaults.stream);
    if (profile.defaults.temperature)
        m_settings->setValue(u"temperature"_s, *profile.defaults.temperature);
    if (profile.defaults.topP)
        m_settings->setValue(u"topP"_s, *profile.defaults.topP);
    if (profile.defaults.maxOutputTokens)
        m_settings->setValue(u"maxOutputTokens"_s, *profile.defaults.maxOutputTokens);
    if (profile.inputPricePerMTok)
        m_settings->setValue(u"inputPricePerMTok"_s, *profile.inputPricePerMTok);
    if (profile.outputPricePerMTok)
        m_settings->setValue(u"outputPricePerMTok"_s, *profile.outputPricePerMTok);
    if (profile.contextWindow)
        m_settings->setValue(u"contextWindow"_s, *profile.contextWindow);
    if (profile.keyStorage == ProviderProfile::KeyStorage::File)
        m_settings->setValue(u"keyStorage"_s, u"file"_s);
    m_settings->endGroup();
}

void ProviderProfileStore::remove(const QString &id)
{
    m_settings->remove(u"providers/"_s + id);
    if (defaultProfileId() == id)
        m_settings->remove(u"defaultProvider"_s);
}

QString ProviderProfileStore::defaultProfileId() const
{
    return m_settings->value(u"defaultProvider"_s).toString();
}

void ProviderProfileStore::setDefaultProfileId(const QString &id)
{
    m_settings->setValue(u"defaultProvider"_s, id);
}

} // namespace Loopscope
