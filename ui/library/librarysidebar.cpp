#include "ui/library/librarysidebar.h"

#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "ui/library/sessionlibrarypanel.h"
#include "ui/session/sessionactions.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QFileInfo>
#include <QLineEdit>
#include <QSettings>
#include <QSplitter>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

const QString shownKey = u"library/sidebarShown"_s;
const QString widthKey = u"library/sidebarWidth"_s;

// A chat app's conversation list: room for a title and its date, no more.
int defaultWidth(const QWidget *panel)
{
    return panel->fontMetrics().averageCharWidth() * 40;
}

} // namespace

LibrarySidebar::LibrarySidebar(SessionLibrary *library, SessionActions *sessionActions, QSettings *state,
                               QWidget *window)
    : QObject(window)
    , m_library(library)
    , m_sessionActions(sessionActions)
    , m_document(sessionActions->document())
    , m_state(state)
    , m_toggle(new QAction(QIcon::fromTheme(u"view-list-details"_s), tr("Sessions &Sidebar"), this))
{
    Q_ASSERT(library && sessionActions && state);
    m_panel = new SessionLibraryPanel(library);
    m_panel->setAccessibleName(tr("Sessions"));

    m_toggle->setObjectName(u"toggleSessionsSidebarAction"_s);
    m_toggle->setIconText(tr("Sessions"));
    m_toggle->setCheckable(true);
    m_toggle->setShortcut(Qt::CTRL | Qt::Key_3);
    m_toggle->setToolTip(tr("Show or hide the list of sessions (Ctrl+3)"));
    connect(m_toggle, &QAction::toggled, this, &LibrarySidebar::setShown);

    connect(m_panel, &SessionLibraryPanel::openRequested, m_sessionActions, &SessionActions::openFile);
    connect(m_panel, &SessionLibraryPanel::newRequested, m_sessionActions->newAction(), &QAction::trigger);
    connect(m_panel, &SessionLibraryPanel::renameRequested, this, &LibrarySidebar::rename);
    connect(m_panel, &SessionLibraryPanel::sessionDeleted, this, &LibrarySidebar::onDeleted);
    m_panel->setDeleteGuard([this](const QString &path) { return refuseDeleting(path); });

    // Which row is the conversation in the window.
    ChatSession *session = m_document->session();
    connect(m_document, &SessionDocument::pathChanged, this, &LibrarySidebar::updateOpenSession);
    connect(m_document, &SessionDocument::opened, this, &LibrarySidebar::updateOpenSession);
    connect(m_document, &SessionDocument::autosaved, this, &LibrarySidebar::updateOpenSession);
    connect(session, &ChatSession::cleared, this, &LibrarySidebar::updateOpenSession);
    connect(session, &ChatSession::restored, this, &LibrarySidebar::updateOpenSession);
    // New is not offered while a turn runs, as in the File menu.
    connect(m_sessionActions->newAction(), &QAction::changed, this,
            [this] { m_panel->newAction()->setEnabled(m_sessionActions->newAction()->isEnabled()); });
    updateOpenSession();
}

QSplitter *LibrarySidebar::wrap(QWidget *content)
{
    Q_ASSERT(!m_splitter);
    auto *window = qobject_cast<QWidget *>(parent());
    Q_ASSERT(window);
    m_splitter = new QSplitter(Qt::Horizontal, window);
    m_splitter->setObjectName(u"librarySplitter"_s);
    m_splitter->addWidget(m_panel);
    m_splitter->addWidget(content);
    // The pane is collapsed with its action only, so that it never vanishes under a drag.
    m_splitter->setCollapsible(0, false);
    m_splitter->setCollapsible(1, false);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    connect(m_splitter, &QSplitter::splitterMoved, this, &LibrarySidebar::rememberWidth);

    const int width = m_state->value(widthKey, defaultWidth(m_panel)).toInt();
    m_splitter->setSizes({width, std::max(1, window ? window->width() - width : width * 3)});
    if (m_state->contains(shownKey)) {
        const bool shown = m_state->value(shownKey).toBool();
        m_toggle->setChecked(shown);
        m_panel->setVisible(shown);
    } else {
        m_followingWidth = true;
        window->installEventFilter(this);
        followWindowWidth();
    }
    return m_splitter;
}

bool LibrarySidebar::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize && m_followingWidth && watched == parent())
        followWindowWidth();
    return QObject::eventFilter(watched, event);
}

void LibrarySidebar::followWindowWidth()
{
    const auto *window = qobject_cast<QWidget *>(parent());
    const bool shown = window->width() >= WideWindow;
    m_applyingWidth = true; // a change made here is no choice of the user's
    m_toggle->setChecked(shown);
    m_panel->setVisible(shown);
    m_applyingWidth = false;
}

bool LibrarySidebar::isShown() const
{
    return m_toggle->isChecked();
}

void LibrarySidebar::showAndFocus()
{
    m_toggle->setChecked(true);
    m_panel->searchField()->setFocus();
}

void LibrarySidebar::setShown(bool shown)
{
    if (!m_applyingWidth) {
        // The user's choice, kept from now on whatever the window's width.
        if (m_followingWidth) {
            m_followingWidth = false;
            parent()->removeEventFilter(this);
        }
        m_state->setValue(shownKey, shown);
    }
    if (!m_splitter)
        return;
    if (shown) {
        m_panel->show();
        const QList<int> sizes = m_splitter->sizes();
        const int width = m_state->value(widthKey, defaultWidth(m_panel)).toInt();
        const int total = sizes.value(0) + sizes.value(1);
        if (total > width)
            m_splitter->setSizes({width, total - width});
    } else {
        // The keyboard does not stay in a pane that went away.
        if (m_panel->isAncestorOf(QApplication::focusWidget()))
            m_panel->parentWidget()->setFocus();
        m_panel->hide();
    }
}

void LibrarySidebar::rememberWidth()
{
    const int width = m_splitter->sizes().value(0);
    if (width > 0)
        m_state->setValue(widthKey, width);
}

bool LibrarySidebar::isOpenSession(const QString &path) const
{
    const QString open = m_document->libraryPath();
    return !open.isEmpty() && QFileInfo(open) == QFileInfo(path);
}

void LibrarySidebar::updateOpenSession()
{
    const QString open = m_document->libraryPath();
    m_panel->setOpenSession(open.isEmpty() ? QString() : QFileInfo(open).absoluteFilePath());
}

void LibrarySidebar::rename(const QString &path, const QString &title)
{
    if (isOpenSession(path)) {
        // Through the session: its turns, saved or not, are written with the new title.
        m_document->session()->setTitle(title);
        m_document->noteChange();
        return;
    }
    if (m_library)
        m_library->rename(path, title);
}

QString LibrarySidebar::refuseDeleting(const QString &path) const
{
    if (isOpenSession(path) && m_document->session()->isBusy())
        return tr("Stop the running turn before deleting its session.");
    return {};
}

void LibrarySidebar::onDeleted(const QString &path)
{
    // The open conversation lost its file: the window starts afresh rather than write it back.
    if (isOpenSession(path) || QFileInfo(m_document->path()) == QFileInfo(path))
        m_document->newSession();
}

} // namespace Loopscope::Ui
