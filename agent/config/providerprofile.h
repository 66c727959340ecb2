#pragma once

#include "agent/model/modelrequest.h"
#include "agent/providers/providerkind.h"

#include <QList>
#include <QString>
#include <QUrl>

#include <optional>

QT_BEGIN_NAMESPACE
class QSettings;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    How to reach one model: the protocol, where, which model and its default
    parameters. Never the key: that comes from the keychain (under the
    profile's id), from the environment variable the profile names, or, where
    the user chose it for want of a keychain, from the key file.
*/
struct ProviderProfile
{
    // Where a key that is not in the environment is kept.
    enum class KeyStorage {
        Keychain, // the system keychain
        File,     // a file only the user can read (FileSecretStore), chosen with a warning
    };

    QString id;   // stable, also the keychain account
    QString name; // what the user calls it
    ProviderKind kind = ProviderKind::OpenAi;
    QUrl baseUrl;
    QString model;
    QString apiKeyEnv; // e.g. OPENAI_API_KEY; empty: use the keychain
    ModelOptions defaults;
    // Overrides of the price table (USD per million tokens) and of the model's context window.
    // A price override needs both prices; local servers cost 0 without one.
    std::optional<double> inputPricePerMTok;
    std::optional<double> outputPricePerMTok;
    std::optional<qint64> contextWindow;
    KeyStorage keyStorage = KeyStorage::Keychain;

    QUrl effectiveBaseUrl() const { return baseUrl.isEmpty() ? defaultBaseUrl(kind) : baseUrl; }
    // Ollama runs locally without one; everything else needs a key.
    bool needsKey() const { return kind != ProviderKind::Ollama; }
    // Ollama, or any server on this machine (llama.cpp, LM Studio): its tokens cost nothing.
    bool isLocal() const;

    bool operator==(const ProviderProfile &) const = default;
};

/*!
    The provider a saved session says it ran on: enough to find a profile that
    reaches it again, never a key.
*/
struct RecordedProvider
{
    QString kind; // providerKindName(), e.g. "openai"
    QUrl baseUrl; // empty when the file did not say
    QString model;

    bool operator==(const RecordedProvider &) const = default;
};

// Whether profile reaches the provider a session recorded (same protocol and,
// when recorded, the same base URL); the model may differ.
bool reachesRecordedProvider(const ProviderProfile &profile, const RecordedProvider &recorded);

// The profile to continue a recorded session with: current when it reaches
// the recorded provider, else the first of profiles that does; nullopt when none.
std::optional<ProviderProfile> profileForRecordedProvider(const std::optional<ProviderProfile> &current,
                                                          const QList<ProviderProfile> &profiles,
                                                          const RecordedProvider &recorded);

/*!
    Provider profiles kept in QSettings. A profile has no field for a key, so
    nothing secret can reach the settings file through it.
*/
class ProviderProfileStore final
{
public:
    explicit ProviderProfileStore(QSettings *settings);

    QList<ProviderProfile> profiles() const;
    std::optional<ProviderProfile> profile(const QString &id) const;
    void save(const ProviderProfile &profile);
    void remove(const QString &id);

    QString defaultProfileId() const;
    void setDefaultProfileId(const QString &id);

private:
    QSettings *m_settings;
};

} // namespace Loopscope
