#include "ui/library/sessionlibrarypanel.h"

#include <QAction>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QStackedWidget>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

constexpr int PathRole = Qt::UserRole;
constexpr int ReadableRole = Qt::UserRole + 1;

// Typing pauses this long before the library is searched.
constexpr int searchDelayMs = 150;

QTreeWidget *newList(const QStringList &headers, QWidget *parent)
{
    auto *list = new QTreeWidget(parent);
    list->setHeaderLabels(headers);
    list->setRootIsDecorated(false);
    list->setUniformRowHeights(true);
    list->setAllColumnsShowFocus(true);
    list->setSelectionMode(QAbstractItemView::SingleSelection);
    list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    list->setContextMenuPolicy(Qt::CustomContextMenu);
    list->header()->setStretchLastSection(false);
    return list;
}

// A narrow column shows the start of a snippet: begin it a few words before
// the match, so the match is what the user sees; the tooltip has it all.
QString snippetFromMatch(const QString &snippet, const QString &text)
{
    constexpr qsizetype lead = 16;
    qsizetype from = snippet.indexOf(text, 0, Qt::CaseInsensitive) - lead;
    if (from <= 1)
        return snippet;
    if (snippet.at(from).isLowSurrogate())
        --from;
    const qsizetype space = snippet.indexOf(u' ', from);
    if (space >= 0 && space < from + lead)
        from = space + 1;
    return u'…' + snippet.mid(from);
}

QString displayTitle(const QString &title, const QString &path, bool readable)
{
    if (!readable)
        return QFileInfo(path).fileName();
    return title.isEmpty() ? SessionLibraryPanel::tr("Untitled") : title;
}

} // namespace

SessionLibraryPanel::SessionLibraryPanel(SessionLibrary *library, QWidget *parent)
    : QWidget(parent)
    , m_library(library)
    , m_search(new QLineEdit(this))
    , m_stack(new QStackedWidget(this))
    , m_sessions(newList({tr("Title"), tr("Updated"), tr("Model"), tr("Turns")}, m_stack))
    , m_hits(newList({tr("Session"), tr("Match")}, m_stack))
    , m_status(new QLabel(this))
    , m_searchTimer(new QTimer(this))
    , m_openAction(new QAction(tr("&Open"), this))
    , m_deleteAction(new QAction(QIcon::fromTheme(u"edit-delete"_s), tr("&Delete…"), this))
    , m_newAction(new QAction(QIcon::fromTheme(u"document-new"_s), tr("&New"), this))
    , m_renameAction(new QAction(QIcon::fromTheme(u"edit-rename"_s), tr("&Rename"), this))
{
    Q_ASSERT(library);
    m_search->setObjectName(u"sessionSearchField"_s);
    m_search->setAccessibleName(tr("Search sessions"));
    m_search->setPlaceholderText(tr("Search sessions"));
    m_search->setClearButtonEnabled(true);
    m_sessions->setObjectName(u"sessionList"_s);
    m_sessions->setAccessibleName(tr("Saved sessions"));
    m_sessions->header()->setSectionResizeMode(TitleColumn, QHeaderView::Stretch);
    m_sessions->header()->setSectionResizeMode(UpdatedColumn, QHeaderView::ResizeToContents);
    // A model's name can be long ("claude-sonnet-4-20250514"): it is elided
    // rather than leaving the title no room in a narrow dock.
    m_sessions->header()->setSectionResizeMode(ModelColumn, QHeaderView::Interactive);
    m_sessions->setColumnWidth(ModelColumn, fontMetrics().averageCharWidth() * 14);
    m_sessions->header()->setSectionResizeMode(TurnsColumn, QHeaderView::ResizeToContents);
    m_hits->setObjectName(u"sessionSearchResults"_s);
    m_hits->setAccessibleName(tr("Sessions matching the search"));
    m_hits->header()->setSectionResizeMode(HitTitleColumn, QHeaderView::Interactive);
    m_hits->header()->setSectionResizeMode(SnippetColumn, QHeaderView::Stretch);
    m_hits->setColumnWidth(HitTitleColumn, fontMetrics().averageCharWidth() * 24);
    m_status->setObjectName(u"sessionLibraryStatus"_s);
    m_status->setAccessibleName(tr("Session library status"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_stack->addWidget(m_sessions);
    m_stack->addWidget(m_hits);

    m_openAction->setObjectName(u"openSessionAction"_s);
    m_deleteAction->setObjectName(u"deleteSessionAction"_s);
    m_deleteAction->setShortcut(QKeySequence::Delete);
    m_deleteAction->setShortcutContext(Qt::WidgetShortcut);
    m_deleteAction->setToolTip(tr("Delete the selected session's file, after asking (Delete)"));
    m_newAction->setObjectName(u"newSessionFromLibraryAction"_s);
    m_newAction->setToolTip(tr("Start a new conversation"));
    m_renameAction->setObjectName(u"renameSessionAction"_s);
    m_renameAction->setShortcut(Qt::Key_F2);
    m_renameAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_renameAction->setToolTip(tr("Change the selected session's title (F2); its file keeps its name"));
    addAction(m_renameAction);
    // F2 edits the title in place; the edit is stored in the file.
    m_sessions->setEditTriggers(QAbstractItemView::EditKeyPressed);
    connect(m_sessions, &QTreeWidget::itemChanged, this, &SessionLibraryPanel::onItemChanged);
    for (QTreeWidget *list : {m_sessions, m_hits}) {
        list->addAction(m_deleteAction);
        // Double-click or Enter, as the platform has it.
        connect(list, &QTreeWidget::itemActivated, this, &SessionLibraryPanel::activate);
        connect(list, &QTreeWidget::currentItemChanged, this, &SessionLibraryPanel::updateActions);
        connect(list, &QWidget::customContextMenuRequested, this,
                [this, list](const QPoint &position) { showContextMenu(list, position); });
    }
    connect(m_openAction, &QAction::triggered, this, &SessionLibraryPanel::openCurrent);
    connect(m_deleteAction, &QAction::triggered, this, &SessionLibraryPanel::askToDeleteCurrent);
    connect(m_newAction, &QAction::triggered, this, &SessionLibraryPanel::newRequested);
    connect(m_renameAction, &QAction::triggered, this, &SessionLibraryPanel::renameCurrent);

    m_searchTimer->setSingleShot(true);
    m_searchTimer->setInterval(searchDelayMs);
    connect(m_searchTimer, &QTimer::timeout, this, &SessionLibraryPanel::startSearch);
    connect(m_search, &QLineEdit::textChanged, this, &SessionLibraryPanel::onSearchTextChanged);
    // Enter in the field goes to the results, Enter again opens one.
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (m_searchTimer->isActive()) {
            m_searchTimer->stop();
            startSearch();
        }
        QTreeWidget *list = visibleList();
        if (list->topLevelItemCount() == 0)
            return;
        if (!list->currentItem())
            list->setCurrentItem(list->topLevelItem(0));
        list->setFocus();
    });
    connect(library, &SessionLibrary::entriesChanged, this, [this] {
        m_deleteError.clear();
        showEntries();
        // The files changed: so may what matches.
        if (!m_search->text().trimmed().isEmpty())
            startSearch();
    });
    connect(library, &SessionLibrary::searchFinished, this, &SessionLibraryPanel::onSearchFinished);
    connect(library, &SessionLibrary::renameFinished, this,
            [this](const QString &, const QString &, const QString &error) {
                if (error.isEmpty())
                    return;
                // The row goes back to the title the file still has.
                showEntries();
                showProblem(error);
            });

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(2);
    for (QAction *action : {m_newAction, m_renameAction, m_deleteAction}) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setAutoRaise(true);
        buttons->addWidget(button);
    }
    buttons->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 0, 2);
    layout->setSpacing(2);
    layout->addLayout(buttons);
    layout->addWidget(m_search);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_status);
    setFocusProxy(m_search);
    // Narrow enough that a 900×600 screen keeps the chat and the trace beside it; the
    // buttons' row would ask for more.
    setMinimumWidth(fontMetrics().averageCharWidth() * 13);

    showEntries();
}

SessionLibraryPanel::~SessionLibraryPanel() = default;

QString SessionLibraryPanel::statusText() const
{
    return m_status->text();
}

QTreeWidget *SessionLibraryPanel::visibleList() const
{
    return m_stack->currentWidget() == m_hits ? m_hits : m_sessions;
}

QString SessionLibraryPanel::currentPath() const
{
    const QTreeWidgetItem *item = visibleList()->currentItem();
    return item ? item->data(0, PathRole).toString() : QString();
}

void SessionLibraryPanel::showEntries()
{
    const QList<SessionLibraryEntry> entries
        = m_library ? m_library->entries() : QList<SessionLibraryEntry>();
    const QString current
        = m_sessions->currentItem() ? m_sessions->currentItem()->data(0, PathRole).toString() : QString();
    const QLocale locale;
    const QDateTime now = QDateTime::currentDateTime();
    const QBrush grey = palette().brush(QPalette::Disabled, QPalette::Text);
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    QList<QTreeWidgetItem *> items;
    items.reserve(entries.size());
    QTreeWidgetItem *currentItem = nullptr;
    for (const SessionLibraryEntry &entry : entries) {
        auto *item = new QTreeWidgetItem;
        const QString nativePath = QDir::toNativeSeparators(entry.path);
        item->setData(0, PathRole, entry.path);
        item->setData(0, ReadableRole, entry.isReadable());
        item->setText(TitleColumn, displayTitle(entry.title, entry.path, entry.isReadable()));
        item->setText(UpdatedColumn, relativeDate(entry.updated.toLocalTime(), now));
        item->setText(ModelColumn, entry.model);
        if (entry.isReadable()) {
            // Only the title column is edited: the others are drawn, not typed into.
            item->setFlags(item->flags() | Qt::ItemIsEditable);
            item->setText(TurnsColumn, locale.toString(entry.turnCount));
            item->setTextAlignment(TurnsColumn, Qt::AlignRight | Qt::AlignVCenter);
            const QString tip = displayTitle(entry.title, entry.path, true) + u'\n'
                                + locale.toString(entry.updated.toLocalTime(), QLocale::LongFormat) + u'\n'
                                + nativePath + u'\n' + locale.formattedDataSize(entry.sizeBytes);
            for (int column = 0; column <= TurnsColumn; ++column)
                item->setToolTip(column, tip);
        } else {
            const QString tip = tr("This file cannot be opened: %1").arg(entry.error) + u'\n' + nativePath;
            item->setIcon(TitleColumn, warning);
            for (int column = 0; column <= TurnsColumn; ++column) {
                item->setForeground(column, grey);
                item->setToolTip(column, tip);
            }
        }
        if (!m_openSession.isEmpty() && entry.path == m_openSession) {
            QFont bold = item->font(TitleColumn);
            bold.setBold(true);
            item->setFont(TitleColumn, bold);
        }
        if (entry.path == current)
            currentItem = item;
        items.append(item);
    }
    const QScopedValueRollback filling(m_filling, true);
    m_sessions->clear();
    m_sessions->addTopLevelItems(items);
    if (currentItem)
        m_sessions->setCurrentItem(currentItem);
    updateStatus();
    updateActions();
}

void SessionLibraryPanel::onSearchTextChanged(const QString &text)
{
    m_deleteError.clear();
    m_hits->clear();
    m_searchedText.clear();
    if (text.trimmed().isEmpty()) {
        m_searchTimer->stop();
        m_searching = false;
        m_stack->setCurrentWidget(m_sessions);
    } else {
        m_searching = true;
        m_searchTimer->start();
        m_stack->setCurrentWidget(m_hits);
    }
    updateStatus();
    updateActions();
}

void SessionLibraryPanel::startSearch()
{
    const QString text = m_search->text().trimmed();
    if (text.isEmpty() || !m_library)
        return;
    m_searching = true;
    m_library->search(text);
    updateStatus();
}

QSize SessionLibraryPanel::sizeHint() const
{
    return {fontMetrics().averageCharWidth() * 48, QWidget::sizeHint().height()};
}

void SessionLibraryPanel::onSearchFinished(const QString &text, const QList<SessionSearchHit> &hits)
{
    // The field changed since: a newer search is on its way.
    if (text != m_search->text().trimmed() || m_searchTimer->isActive())
        return;
    const QString current
        = m_hits->currentItem() ? m_hits->currentItem()->data(0, PathRole).toString() : QString();
    m_searching = false;
    m_searchedText = text;
    m_hits->clear();
    QTreeWidgetItem *currentItem = nullptr;
    for (const SessionSearchHit &hit : hits) {
        auto *item = new QTreeWidgetItem(m_hits);
        item->setData(0, PathRole, hit.path);
        item->setData(0, ReadableRole, true);
        item->setText(HitTitleColumn, displayTitle(hit.title, hit.path, true));
        item->setText(SnippetColumn, snippetFromMatch(hit.snippet, text));
        item->setToolTip(HitTitleColumn, QDir::toNativeSeparators(hit.path));
        item->setToolTip(SnippetColumn, hit.snippet);
        if (hit.path == current)
            currentItem = item;
    }
    if (currentItem)
        m_hits->setCurrentItem(currentItem);
    updateStatus();
    updateActions();
}

void SessionLibraryPanel::updateStatus()
{
    QString status;
    if (!m_deleteError.isEmpty()) {
        status = m_deleteError;
    } else if (m_stack->currentWidget() == m_hits) {
        const QString text = m_search->text().trimmed();
        if (m_searching)
            status = tr("Searching…");
        else if (m_hits->topLevelItemCount() == 0)
            status = tr("No session mentions “%1”.").arg(text);
        else
            status = tr("%n session(s) mention “%1”.", nullptr, m_hits->topLevelItemCount()).arg(text);
    } else if (m_sessions->topLevelItemCount() == 0) {
        status = tr("No saved sessions yet: each finished turn is saved here.");
    } else {
        status = tr("%n saved session(s)", nullptr, m_sessions->topLevelItemCount());
    }
    m_status->setText(status);
}

void SessionLibraryPanel::updateActions()
{
    const QTreeWidgetItem *item = visibleList()->currentItem();
    m_openAction->setEnabled(item && item->data(0, ReadableRole).toBool());
    m_deleteAction->setEnabled(item != nullptr);
    // Titles are edited in the list of sessions, not among search hits.
    m_renameAction->setEnabled(visibleList() == m_sessions && item && item->data(0, ReadableRole).toBool());
}

QString SessionLibraryPanel::relativeDate(const QDateTime &when, const QDateTime &now)
{
    const QLocale locale;
    const qint64 days = when.date().daysTo(now.date());
    const QString time = locale.toString(when.time(), QLocale::ShortFormat);
    if (days <= 0)
        return tr("Today %1").arg(time);
    if (days == 1)
        return tr("Yesterday %1").arg(time);
    if (days < 7)
        return tr("%n day(s) ago", nullptr, int(days));
    return locale.toString(when.date(), QLocale::ShortFormat);
}

void SessionLibraryPanel::setOpenSession(const QString &path)
{
    if (m_openSession == path)
        return;
    m_openSession = path;
    showEntries();
}

void SessionLibraryPanel::renameCurrent()
{
    if (visibleList() != m_sessions) {
        // Back to the list, where the title can be edited.
        m_search->clear();
    }
    QTreeWidgetItem *item = m_sessions->currentItem();
    if (!item || !item->data(0, ReadableRole).toBool())
        return;
    m_sessions->setFocus();
    m_sessions->editItem(item, TitleColumn);
}

void SessionLibraryPanel::onItemChanged(QTreeWidgetItem *item, int column)
{
    if (m_filling || column != TitleColumn || !item)
        return;
    const QString path = item->data(0, PathRole).toString();
    const QString title = item->text(TitleColumn).simplified();
    const auto entries = m_library ? m_library->entries() : QList<SessionLibraryEntry>();
    const auto entry = std::find_if(entries.cbegin(), entries.cend(),
                                    [&](const SessionLibraryEntry &each) { return each.path == path; });
    const QString old = entry != entries.cend() ? displayTitle(entry->title, path, true) : QString();
    if (title.isEmpty() || title == old) {
        // Nothing to store: the row shows the title it has.
        const QScopedValueRollback filling(m_filling, true);
        item->setText(TitleColumn, old);
        return;
    }
    emit renameRequested(path, title);
}

void SessionLibraryPanel::showProblem(const QString &text)
{
    m_deleteError = text;
    updateStatus();
}

void SessionLibraryPanel::activate(QTreeWidgetItem *item)
{
    // An unreadable file would only fail to open: its tooltip says why.
    if (!item || !item->data(0, ReadableRole).toBool())
        return;
    emit openRequested(item->data(0, PathRole).toString());
}

void SessionLibraryPanel::openCurrent()
{
    activate(visibleList()->currentItem());
}

void SessionLibraryPanel::showContextMenu(QTreeWidget *list, const QPoint &position)
{
    QTreeWidgetItem *item = list->itemAt(position);
    if (!item)
        return;
    list->setCurrentItem(item);
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(m_openAction);
    menu->addSeparator();
    menu->addAction(m_deleteAction);
    menu->popup(list->viewport()->mapToGlobal(position));
}

void SessionLibraryPanel::askToDeleteCurrent()
{
    const QTreeWidgetItem *item = visibleList()->currentItem();
    if (!item)
        return;
    const QString path = item->data(0, PathRole).toString();
    if (m_confirmation)
        m_confirmation->close();
    auto *box = new QMessageBox(QMessageBox::Question, tr("Delete Session"),
                                tr("Delete “%1”? Its file is removed from the disk.").arg(item->text(0)),
                                QMessageBox::NoButton, this);
    box->setObjectName(u"deleteSessionConfirmation"_s);
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *deleteButton = box->addButton(tr("Delete"), QMessageBox::DestructiveRole);
    deleteButton->setObjectName(u"confirmDeleteButton"_s);
    box->setDefaultButton(box->addButton(QMessageBox::Cancel));
    connect(box, &QMessageBox::finished, this, [this, box, deleteButton, path] {
        if (box->clickedButton() != deleteButton || !m_library)
            return;
        if (m_deleteGuard) {
            const QString refusal = m_deleteGuard(path);
            if (!refusal.isEmpty()) {
                showProblem(refusal);
                return;
            }
        }
        QString error;
        if (!m_library->remove(path, &error)) {
            showProblem(error);
            return;
        }
        emit sessionDeleted(path);
    });
    m_confirmation = box;
    box->open();
}

// In a narrow sidebar the title needs the room more than the model does.
void SessionLibraryPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const int characters = width() / std::max(1, fontMetrics().averageCharWidth());
    m_sessions->setColumnHidden(ModelColumn, characters < 56);
    m_sessions->setColumnHidden(TurnsColumn, characters < 56);
    // A relative date is short ("Yesterday 09:12"): a sidebar keeps it beside the title.
    m_sessions->setColumnHidden(UpdatedColumn, characters < 24);
    // A title and its date need no header, as in a chat app's list.
    m_sessions->setHeaderHidden(characters < 56);
}

void SessionLibraryPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // Unreadable sessions are greyed in the palette's colours.
    if (event->type() == QEvent::PaletteChange)
        showEntries();
}

} // namespace Loopscope::Ui
