#include "ui/settings/settingsdialog.h"

#include "agent/config/appsettings.h"
#include "agent/providers/connectiontester.h"
#include "ui/settings/appearancepage.h"
#include "ui/settings/knowledgepage.h"
#include "ui/settings/looppage.h"
#include "ui/settings/mcpserverspage.h"
#include "ui/settings/providerspage.h"
#include "ui/settings/settingswidgets.h"
#include "ui/settings/toolspage.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

SettingsDialog::SettingsDialog(ProviderProfileStore *profiles, AppSettings *settings, SecretStore *secrets,
                               ConnectionTester *tester, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_secrets(secrets)
{
    Q_ASSERT(profiles && settings && secrets && tester);
    setWindowTitle(tr("Settings"));

    m_loopPage = new LoopPage;
    QStringList profileNames;
    for (const ProviderProfile &profile : profiles->profiles())
        profileNames.append(profile.name);
    m_loopPage->setProfileNames(profileNames);
    m_providersPage
        = new ProvidersPage(profiles, secrets, tester, [this] { return m_loopPage->readTimeoutMs(); });
    m_toolsPage = new ToolsPage;
    m_appearancePage = new AppearancePage;
    m_tabs = named(new QTabWidget(this), u"pages"_s, tr("Settings pages"));
    m_tabs->addTab(m_providersPage, tr("Providers"));
    m_tabs->addTab(m_loopPage, tr("Loop"));
    // Nine tools, the rules from the chat and the workspace are taller than a small screen allows the
    // dialog: the page scrolls rather than squeezing its rows into each other.
    auto *toolsScroll = new QScrollArea;
    toolsScroll->setWidgetResizable(true);
    toolsScroll->setFrameShape(QFrame::NoFrame);
    toolsScroll->setWidget(m_toolsPage);
    m_tabs->addTab(toolsScroll, tr("Tools"));
    m_tabs->addTab(m_appearancePage, tr("Appearance"));

    m_status = named(new QLabel(this), u"statusLabel"_s, tr("Settings status"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_status->hide();

    m_buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply, this);
    m_buttons->setObjectName(u"buttonBox"_s);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, [this] { save(false); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);

    const QFontMetrics metrics = fontMetrics();
    setMinimumSize(metrics.averageCharWidth() * 120, metrics.lineSpacing() * 32);
    // Tall enough for the Tools page whole where the screen allows; it scrolls on a small one.
    QSize preferred(metrics.averageCharWidth() * 120, metrics.lineSpacing() * 46);
    if (const QScreen *screen = parent ? parent->screen() : this->screen())
        preferred = preferred.boundedTo(screen->availableSize() * 0.9);
    resize(preferred.expandedTo(minimumSize()));

    m_providersPage->load();
    for (SettingsPage *page :
         std::initializer_list<SettingsPage *>{m_loopPage, m_toolsPage, m_appearancePage})
        page->load(*settings);
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::addMcpServersPage(McpSettings *settings, McpHub *hub)
{
    if (m_mcpPage)
        return;
    m_mcpPage = new McpServersPage(settings, m_secrets, hub);
    m_mcpPage->setObjectName(u"mcpServersPage"_s);
    m_tabs->addTab(m_mcpPage, tr("&MCP Servers"));
    m_mcpPage->load();
}

void SettingsDialog::addKnowledgePage(KnowledgeBasesModel *bases, const ProviderProfileStore *profiles)
{
    if (m_knowledgePage)
        return;
    m_knowledgePage = new KnowledgePage(bases, profiles);
    m_knowledgePage->setObjectName(u"knowledgePage"_s);
    m_tabs->addTab(m_knowledgePage, tr("&Knowledge"));
    m_knowledgePage->load(*m_settings);
}

void SettingsDialog::showPage(Page page)
{
    if (page == Page::Knowledge) {
        if (m_knowledgePage)
            m_tabs->setCurrentWidget(m_knowledgePage);
        return;
    }
    if (page == Page::McpServers && !m_mcpPage)
        return;
    m_tabs->setCurrentIndex(int(page));
}

void SettingsDialog::showProvider(const QString &id)
{
    showPage(Page::Providers);
    m_providersPage->showProfile(id);
}

void SettingsDialog::selectProvider(const QString &id)
{
    m_providersPage->showProfile(id);
}

void SettingsDialog::accept()
{
    save(true);
}

void SettingsDialog::reject()
{
    m_closeWhenSaved = false; // a key write still running finishes, but no longer closes with "accepted"
    m_providersPage->cancelTest();
    QDialog::reject();
}

bool SettingsDialog::showProblem()
{
    if (const QString problem = m_providersPage->validationError(); !problem.isEmpty()) {
        showPage(Page::Providers);
        setStatus(problem);
        return true;
    }
    if (const QString problem = m_toolsPage->validationError(); !problem.isEmpty()) {
        showPage(Page::Tools);
        m_toolsPage->focusProblem();
        setStatus(problem);
        return true;
    }
    if (m_mcpPage) {
        if (const QString problem = m_mcpPage->validationError(); !problem.isEmpty()) {
            showPage(Page::McpServers);
            setStatus(problem);
            return true;
        }
    }
    return false;
}

bool SettingsDialog::save(bool closeWhenDone)
{
    if (isSaving() || showProblem())
        return false;
    // Settings are written at once; keys (of profiles and of MCP servers) when the keychain answers.
    // The guard count keeps a store that answers at once from finishing early.
    m_saveErrors.clear();
    m_closeWhenSaved = closeWhenDone;
    m_pendingWrites = 2;
    setSaving(true);
    const auto keysStored = [this](const QStringList &errors) {
        keyOperationFinished(errors.join(u"; "_s));
    };
    m_providersPage->save(keysStored);
    for (SettingsPage *page :
         std::initializer_list<SettingsPage *>{m_loopPage, m_toolsPage, m_appearancePage})
        page->save(*m_settings);
    if (m_knowledgePage)
        m_knowledgePage->save(*m_settings);
    if (m_mcpPage) {
        ++m_pendingWrites;
        m_mcpPage->save(keysStored);
    }
    keyOperationFinished(QString());
    return true;
}

void SettingsDialog::keyOperationFinished(const QString &error)
{
    if (!error.isEmpty())
        m_saveErrors.append(error);
    if (--m_pendingWrites > 0)
        return;
    setSaving(false);
    if (!m_saveErrors.isEmpty()) {
        // Settings are written; the user can retry the keys with Apply or OK (or, without a keychain,
        // choose where the key goes on the Providers page).
        setStatus(tr("Not every key was saved: %1").arg(m_saveErrors.join(u"; "_s)));
        return;
    }
    emit applied();
    if (m_closeWhenSaved) {
        setStatus(QString());
        QDialog::accept();
    } else {
        setStatus(tr("Saved."));
    }
}

void SettingsDialog::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

void SettingsDialog::setSaving(bool saving)
{
    m_tabs->setEnabled(!saving);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!saving);
    m_buttons->button(QDialogButtonBox::Apply)->setEnabled(!saving);
    if (saving)
        setStatus(tr("Saving…"));
}

} // namespace Loopscope::Ui
