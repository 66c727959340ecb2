#pragma once

#include "agent/config/apikeyresolver.h"
#include "agent/config/providerprofile.h"
#include "ui/settings/providerprofileeditor.h"

#include <QPointer>
#include <QWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QListWidget;
class QPushButton;
class QStackedWidget;
QT_END_NAMESPACE

namespace Loopscope {
class ConnectionTester;
class SecretStore;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    Settings → Providers: the provider profiles, one edited at a time, which is
    the default, and "Test connection" (through the ConnectionTester it is
    given, never a client of its own). Edits stay here until save(): profiles
    go to their store at once, keys to the keychain (or, for a profile the
    user put there, to the key file), which answers later. Only whether a
    stored key exists is ever read back, never the key. Without a keychain the
    profile's form says so and offers the ways around it.
*/
class ProvidersPage final : public QWidget
{
    Q_OBJECT

public:
    // \a testTimeoutMs says how long a connection test may wait for an answer.
    ProvidersPage(ProviderProfileStore *profiles, SecretStore *secrets, ConnectionTester *tester,
                  std::function<int()> testTimeoutMs, QWidget *parent = nullptr);
    ~ProvidersPage() override;

    // Shows the stored profiles, then whether the keychain holds a key for each.
    void load();
    // Empty when every profile can be saved; else a sentence, with that profile shown.
    QString validationError();
    // Writes the profiles, then their keys; \a done gets the keychain's errors (empty: all stored).
    void save(std::function<void(const QStringList &errors)> done);
    void cancelTest();
    // Shows the profile with \a id (e.g. the one whose key is missing); false when there is none.
    bool showProfile(const QString &id);

private:
    // A profile as edited here; the stores only see it on save().
    struct Draft
    {
        ProviderProfile profile;
        ProviderProfileEditor::KeyState keyState = ProviderProfileEditor::KeyState::Missing;
        QString keyError;
        QString invalidReason; // why it cannot be saved yet; empty when it can
        QString newKey;        // typed, not yet in the keychain
        bool saved = false;    // in the profile store (it has an id)
        bool isDefault = false;
    };

    void checkStoredKey(const ProviderProfile &profile);
    // Where \a profile's key is kept: the keychain, or the key file it chose; nullptr when there is none.
    SecretStore *storeFor(const ProviderProfile &profile) const;
    void setKeyState(const QString &id, ProviderProfileEditor::KeyState state, const QString &error);
    void refreshProviderList();
    void selectProvider(int row);
    void commitEditor();
    void addProvider();
    void removeProvider();
    void makeDefault();
    void updateProviderButtons();
    void testConnection();
    void testWithKey(const ProviderProfile &profile, const ApiKeyResolver::Result &key, int timeoutMs);
    void startTest(const ProviderProfile &profile, const QString &apiKey, int timeoutMs);
    void saveProfiles();
    void keyWritten(const QString &id);
    QString newProfileId(const ProviderProfile &profile) const;

    ProviderProfileStore *m_profiles;
    SecretStore *m_secrets;
    QPointer<ConnectionTester> m_tester; // shared: a test of this page's ends with it
    std::function<int()> m_testTimeoutMs;

    QListWidget *m_providerList = nullptr;
    QPushButton *m_addButton = nullptr;
    QPushButton *m_removeButton = nullptr;
    QPushButton *m_defaultButton = nullptr;
    QStackedWidget *m_editorStack = nullptr;
    ProviderProfileEditor *m_editor = nullptr;

    QList<Draft> m_drafts;
    QList<ProviderProfile> m_removed; // saved profiles removed here: their keys go on save()
    int m_current = -1;
    int m_testGeneration = 0;
};

} // namespace Loopscope::Ui
