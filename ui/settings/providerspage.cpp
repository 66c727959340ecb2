#include "ui/settings/providerspage.h"

#include "agent/config/secretstore.h"
#include "agent/providers/connectiontester.h"
#include "ui/settings/settingswidgets.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <memory>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

using KeyState = ProviderProfileEditor::KeyState;

ProvidersPage::ProvidersPage(ProviderProfileStore *profiles, SecretStore *secrets, ConnectionTester *tester,
                             std::function<int()> testTimeoutMs, QWidget *parent)
    : QWidget(parent)
    , m_profiles(profiles)
    , m_secrets(secrets)
    , m_tester(tester)
    , m_testTimeoutMs(std::move(testTimeoutMs))
{
    Q_ASSERT(profiles && secrets && tester && m_testTimeoutMs);
    m_providerList = named(new QListWidget(this), u"providerList"_s, tr("Provider profiles"));
    m_addButton
        = named(new QPushButton(tr("A&dd"), this), u"addProviderButton"_s, tr("Add a provider profile"));
    m_removeButton = named(new QPushButton(tr("&Remove"), this), u"removeProviderButton"_s,
                           tr("Remove the selected provider profile"));
    m_defaultButton = named(new QPushButton(tr("Make de&fault"), this), u"makeDefaultButton"_s,
                            tr("Make the selected profile the default"));
    m_defaultButton->setToolTip(tr("New conversations use the default profile."));

    m_editorStack = new QStackedWidget(this);
    auto *empty = hintLabel(tr("No provider yet. Press Add to set one up: an OpenAI-compatible service, "
                               "Anthropic, Google Gemini, or an Ollama server on this computer."),
                            m_editorStack);
    empty->setObjectName(u"noProviderLabel"_s);
    empty->setAlignment(Qt::AlignCenter);
    m_editor = new ProviderProfileEditor(m_editorStack);
    m_editor->setObjectName(u"profileEditor"_s);
    m_editorStack->addWidget(empty);
    // On a small screen the form scrolls rather than squeezing its wrapped
    // help and the connection test's message out of sight.
    auto *editorScroll = new QScrollArea(m_editorStack);
    editorScroll->setWidget(m_editor);
    editorScroll->setWidgetResizable(true);
    editorScroll->setFrameShape(QFrame::NoFrame);
    editorScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_editorStack->addWidget(editorScroll);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_addButton);
    buttons->addWidget(m_removeButton);
    auto *left = new QVBoxLayout;
    left->addWidget(m_providerList, 1);
    left->addLayout(buttons);
    left->addWidget(m_defaultButton);

    auto *layout = new QHBoxLayout(this);
    layout->addLayout(left, 2);
    layout->addWidget(m_editorStack, 5);

    connect(m_providerList, &QListWidget::currentRowChanged, this, &ProvidersPage::selectProvider);
    connect(m_addButton, &QPushButton::clicked, this, &ProvidersPage::addProvider);
    connect(m_removeButton, &QPushButton::clicked, this, &ProvidersPage::removeProvider);
    connect(m_defaultButton, &QPushButton::clicked, this, &ProvidersPage::makeDefault);
    connect(m_editor, &ProviderProfileEditor::testRequested, this, &ProvidersPage::testConnection);
    m_editor->setKeyFileOffered(secrets->keyFile() != nullptr);
    connect(m_editor, &ProviderProfileEditor::edited, this, [this] {
        const auto storage = [this] {
            return m_current >= 0 ? m_drafts.at(m_current).profile.keyStorage
                                  : ProviderProfile::KeyStorage::Keychain;
        };
        const ProviderProfile::KeyStorage before = storage();
        commitEditor();
        // The key moves to the other store: whether that one holds a key is asked afresh.
        if (m_current >= 0 && storage() != before && m_drafts.at(m_current).saved)
            checkStoredKey(m_drafts.at(m_current).profile);
        if (QListWidgetItem *item = m_providerList->item(m_current)) {
            const Draft &draft = m_drafts.at(m_current);
            const QString name = draft.profile.name.isEmpty() ? tr("(no name)") : draft.profile.name;
            item->setText(draft.isDefault ? tr("%1 (default)").arg(name) : name);
        }
    });

    connect(tester, &ConnectionTester::succeeded, this,
            [this](const QString &message) { m_editor->setTestResult(true, message); });
    connect(tester, &ConnectionTester::failed, this,
            [this](const QString &message) { m_editor->setTestResult(false, message); });
}

ProvidersPage::~ProvidersPage()
{
    cancelTest();
}

void ProvidersPage::load()
{
    const QString defaultId = m_profiles->defaultProfileId();
    m_drafts.clear();
    for (const ProviderProfile &profile : m_profiles->profiles()) {
        Draft draft;
        draft.profile = profile;
        draft.saved = true;
        draft.isDefault = profile.id == defaultId;
        draft.keyState = KeyState::Checking;
        m_drafts.append(draft);
    }
    m_current = -1;
    refreshProviderList();
    m_providerList->setCurrentRow(m_drafts.isEmpty() ? -1 : 0);
    if (m_drafts.isEmpty())
        selectProvider(-1);
    for (const Draft &draft : std::as_const(m_drafts))
        checkStoredKey(draft.profile);
}

bool ProvidersPage::showProfile(const QString &id)
{
    for (int row = 0; row < m_drafts.size(); ++row) {
        if (m_drafts.at(row).saved && m_drafts.at(row).profile.id == id) {
            m_providerList->setCurrentRow(row);
            return true;
        }
    }
    return false;
}

SecretStore *ProvidersPage::storeFor(const ProviderProfile &profile) const
{
    return profile.keyStorage == ProviderProfile::KeyStorage::File ? m_secrets->keyFile() : m_secrets;
}

QString ProvidersPage::validationError()
{
    commitEditor();
    for (int row = 0; row < m_drafts.size(); ++row) {
        const Draft &draft = m_drafts.at(row);
        if (draft.invalidReason.isEmpty())
            continue;
        m_providerList->setCurrentRow(row);
        return tr("Provider “%1”: %2").arg(draft.profile.name, draft.invalidReason);
    }
    return {};
}

void ProvidersPage::save(std::function<void(const QStringList &errors)> done)
{
    saveProfiles();
    // Keys. The guard count keeps a store that answers at once from finishing early.
    struct Writes
    {
        int pending = 1;
        QStringList errors;
        std::function<void(const QStringList &)> done;
    };
    const auto writes = std::make_shared<Writes>();
    writes->done = std::move(done);
    const auto finished = [writes](const QString &error) {
        if (!error.isEmpty())
            writes->errors.append(error);
        if (--writes->pending == 0)
            writes->done(writes->errors);
    };
    const QList<ProviderProfile> removed = std::exchange(m_removed, {});
    for (const ProviderProfile &profile : removed) {
        SecretStore *store = storeFor(profile);
        if (!store)
            continue;
        ++writes->pending;
        store->remove(profile.id, this, [finished](const SecretStore::WriteError &error) {
            // Without a keychain there is no key in it to remove.
            const bool gone = error.isEmpty() || error.problem == SecretStore::Problem::NoKeychain;
            finished(gone ? QString() : tr("a removed profile's key stayed: %1").arg(error.text));
        });
    }
    for (const Draft &draft : std::as_const(m_drafts)) {
        if (draft.newKey.isEmpty())
            continue;
        ++writes->pending;
        const QString id = draft.profile.id;
        const QString name = draft.profile.name;
        SecretStore *store = storeFor(draft.profile);
        if (!store) {
            finished(tr("the key for “%1” was not saved: there is no key file.").arg(name));
            continue;
        }
        store->write(
            id, draft.newKey, this, [this, id, name, finished](const SecretStore::WriteError &error) {
                if (error.isEmpty()) {
                    keyWritten(id);
                    finished(QString());
                } else if (error.problem == SecretStore::Problem::NoKeychain) {
                    // Said in place, with the ways around it; the typed key stays to be used there.
                    setKeyState(id, KeyState::NoKeychain, error.text);
                    finished(tr("No keychain is available on this desktop to keep the key for “%1”: "
                                "name an environment variable for it, or store it in a file only you can "
                                "read (Providers).")
                                 .arg(name));
                } else {
                    finished(tr("the key for “%1” was not saved: %2").arg(name, error.text));
                }
            });
    }
    finished(QString());
}

void ProvidersPage::saveProfiles()
{
    // New profiles get their id (also their keychain account) now.
    for (Draft &draft : m_drafts) {
        if (!draft.saved)
            draft.profile.id = newProfileId(draft.profile);
    }
    for (const ProviderProfile &profile : std::as_const(m_removed))
        m_profiles->remove(profile.id);
    bool hasDefault = false;
    for (Draft &draft : m_drafts) {
        m_profiles->save(draft.profile);
        draft.saved = true;
        hasDefault = hasDefault || draft.isDefault;
    }
    if (!hasDefault && !m_drafts.isEmpty())
        m_drafts.first().isDefault = true;
    for (const Draft &draft : std::as_const(m_drafts)) {
        if (draft.isDefault)
            m_profiles->setDefaultProfileId(draft.profile.id);
    }
    refreshProviderList();
}

void ProvidersPage::keyWritten(const QString &id)
{
    for (int row = 0; row < m_drafts.size(); ++row) {
        Draft &written = m_drafts[row];
        if (written.profile.id != id)
            continue;
        written.newKey.clear();
        written.keyState = KeyState::Stored;
        written.keyError.clear();
        if (row == m_current) {
            m_editor->setTypedKey(QString());
            m_editor->setKeyState(KeyState::Stored);
        }
    }
}

void ProvidersPage::cancelTest()
{
    if (m_tester)
        m_tester->cancel();
}

void ProvidersPage::checkStoredKey(const ProviderProfile &profile)
{
    SecretStore *store = storeFor(profile);
    if (!store) {
        setKeyState(profile.id, KeyState::Missing, {});
        return;
    }
    // Only whether a key exists is kept; the key itself goes out of scope here.
    const QString id = profile.id;
    const ProviderProfile::KeyStorage storage = profile.keyStorage;
    store->read(id, this, [this, id, storage](const SecretStore::Result &result) {
        for (const Draft &draft : std::as_const(m_drafts)) {
            if (draft.saved && draft.profile.id == id && draft.profile.keyStorage != storage)
                return; // asked of the store the profile no longer uses
        }
        KeyState state = KeyState::Missing;
        if (result.secret)
            state = KeyState::Stored;
        else if (result.problem == SecretStore::Problem::NoKeychain)
            state = KeyState::NoKeychain;
        else if (!result.error.isEmpty())
            state = KeyState::Unreadable;
        setKeyState(id, state, result.error);
    });
}

void ProvidersPage::setKeyState(const QString &id, KeyState state, const QString &error)
{
    for (int row = 0; row < m_drafts.size(); ++row) {
        Draft &draft = m_drafts[row];
        if (!draft.saved || draft.profile.id != id)
            continue;
        draft.keyState = state;
        draft.keyError = error;
        if (row == m_current)
            m_editor->setKeyState(draft.keyState, draft.keyError);
    }
}

void ProvidersPage::refreshProviderList()
{
    const QSignalBlocker blocker(m_providerList);
    m_providerList->clear();
    for (const Draft &draft : std::as_const(m_drafts)) {
        const QString name = draft.profile.name.isEmpty() ? tr("(no name)") : draft.profile.name;
        auto *item = new QListWidgetItem(draft.isDefault ? tr("%1 (default)").arg(name) : name);
        if (draft.isDefault) {
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
        }
        m_providerList->addItem(item);
    }
    m_providerList->setCurrentRow(m_current);
    updateProviderButtons();
}

void ProvidersPage::selectProvider(int row)
{
    commitEditor();
    m_tester->cancel();
    ++m_testGeneration;
    m_current = row >= 0 && row < m_drafts.size() ? row : -1;
    if (m_current < 0) {
        m_editorStack->setCurrentIndex(0);
        m_editor->setProfile(ProviderProfile());
    } else {
        const Draft &draft = m_drafts.at(m_current);
        m_editor->setProfile(draft.profile);
        m_editor->setKeyState(draft.keyState, draft.keyError);
        m_editor->setTypedKey(draft.newKey);
        m_editorStack->setCurrentIndex(1);
    }
    updateProviderButtons();
}

void ProvidersPage::commitEditor()
{
    if (m_current < 0 || m_current >= m_drafts.size())
        return;
    Draft &draft = m_drafts[m_current];
    const QString id = draft.profile.id; // the editor does not own the id: a new one is given on save
    draft.profile = m_editor->profile();
    draft.profile.id = id;
    draft.newKey = m_editor->typedKey();
    draft.invalidReason = m_editor->validationError();
}

void ProvidersPage::addProvider()
{
    commitEditor();
    Draft draft;
    draft.profile.name = tr("New provider");
    draft.profile.kind = ProviderKind::OpenAi;
    draft.keyState = KeyState::Missing;
    draft.isDefault = m_drafts.isEmpty();
    m_drafts.append(draft);
    refreshProviderList();
    m_providerList->setCurrentRow(int(m_drafts.size()) - 1);
    m_drafts.last().invalidReason = m_editor->validationError();
    m_editor->focusName();
}

void ProvidersPage::removeProvider()
{
    const int row = m_current;
    if (row < 0)
        return;
    const Draft removed = m_drafts.takeAt(row);
    if (removed.saved)
        m_removed.append(removed.profile);
    if (removed.isDefault && !m_drafts.isEmpty())
        m_drafts.first().isDefault = true;
    m_current = -1; // nothing to commit: the edited profile is gone
    refreshProviderList();
    const int next = qMin(row, int(m_drafts.size()) - 1);
    m_providerList->setCurrentRow(next);
    if (next < 0)
        selectProvider(-1);
}

void ProvidersPage::makeDefault()
{
    if (m_current < 0)
        return;
    commitEditor();
    for (int row = 0; row < m_drafts.size(); ++row)
        m_drafts[row].isDefault = row == m_current;
    refreshProviderList();
}

void ProvidersPage::updateProviderButtons()
{
    m_removeButton->setEnabled(m_current >= 0);
    m_defaultButton->setEnabled(m_current >= 0 && !m_drafts.at(m_current).isDefault);
}

void ProvidersPage::testConnection()
{
    commitEditor();
    if (m_current < 0)
        return;
    const Draft &draft = m_drafts.at(m_current);
    if (!draft.invalidReason.isEmpty()) {
        m_editor->setTestResult(false, draft.invalidReason);
        return;
    }
    m_editor->setTestRunning();
    const int generation = ++m_testGeneration;
    const ProviderProfile profile = draft.profile;
    const int timeoutMs = qMin(ConnectionTester::DefaultTimeoutMs, m_testTimeoutMs());

    // The key the chat would use: one typed here first, then what the chat's resolver finds.
    if (!draft.newKey.isEmpty()) {
        startTest(profile, draft.newKey, timeoutMs);
        return;
    }
    // The keychain only for a profile it may hold a key for, so testing a new one asks no unlock.
    const bool keychainMayHoldKey = draft.saved && draft.keyState != KeyState::Missing;
    ApiKeyResolver(keychainMayHoldKey ? m_secrets : nullptr)
        .resolve(profile, this, [this, generation, profile, timeoutMs](const ApiKeyResolver::Result &key) {
            if (generation == m_testGeneration) // else another profile is shown now
                testWithKey(profile, key, timeoutMs);
        });
}

void ProvidersPage::startTest(const ProviderProfile &profile, const QString &apiKey, int timeoutMs)
{
    m_tester->test(profile.kind, profile.effectiveBaseUrl(), profile.model, apiKey, timeoutMs);
}

void ProvidersPage::testWithKey(const ProviderProfile &profile, const ApiKeyResolver::Result &key,
                                int timeoutMs)
{
    using Status = ApiKeyResolver::Result::Status;
    switch (key.status) {
    case Status::Found:
    case Status::NotNeeded: startTest(profile, key.key, timeoutMs); return;
    case Status::EnvironmentUnset:
        m_editor->setTestResult(false, tr("the environment variable %1 is not set.").arg(profile.apiKeyEnv));
        return;
    case Status::NotStored:
        // Without a key: a local OpenAI-compatible server may not want one; the answer will say.
        startTest(profile, QString(), timeoutMs);
        return;
    case Status::NoKeychain:
        m_editor->setTestResult(false, tr("no keychain is available on this desktop to hold the key."));
        return;
    case Status::KeychainUnreadable:
        m_editor->setTestResult(false, tr("the keychain could not be read: %1").arg(key.keychainError));
        return;
    case Status::KeyFileUnreadable:
        m_editor->setTestResult(false, tr("the key file could not be read: %1").arg(key.keychainError));
        return;
    }
}

QString ProvidersPage::newProfileId(const ProviderProfile &profile) const
{
    // Readable in the settings file: the name in lower case, e.g. "work-openai".
    QString slug;
    for (const QChar c : profile.name.toLower()) {
        if ((c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9'))
            slug.append(c);
        else if (!slug.isEmpty() && !slug.endsWith(u'-'))
            slug.append(u'-');
    }
    slug.truncate(32);
    while (slug.endsWith(u'-'))
        slug.chop(1);
    if (slug.isEmpty())
        slug = providerKindName(profile.kind);

    QStringList taken;
    for (const ProviderProfile &removed : m_removed)
        taken.append(removed.id);
    for (const ProviderProfile &stored : m_profiles->profiles())
        taken.append(stored.id);
    for (const Draft &draft : m_drafts)
        taken.append(draft.profile.id);
    QString id = slug;
    for (int n = 2; taken.contains(id); ++n)
        id = slug + u'-' + QString::number(n);
    return id;
}

} // namespace Loopscope::Ui
