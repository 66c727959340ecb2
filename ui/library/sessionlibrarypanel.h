#pragma once

#include "agent/session/sessionlibrary.h"

#include <QPointer>
#include <QWidget>
#include <functional>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QLineEdit;
class QMessageBox;
class QStackedWidget;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    The saved sessions: a list of the library's sessions (title, date, model,
    turns), newest first, and a search field that turns it into the sessions
    mentioning a text, each with the words around the match. Activating a
    session (double-click, Enter, or Open in its context menu) asks the
    window to open it; New asks for a new conversation; Rename (F2) edits the
    title in place and asks for it to be stored; Delete asks first, without
    blocking. Unreadable files are listed greyed, with a warning icon and
    their error as the tooltip; they can be deleted, never renamed. The
    session open in the window is shown in bold. The library comes from
    outside and is not owned.
*/
class SessionLibraryPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit SessionLibraryPanel(SessionLibrary *library, QWidget *parent = nullptr);
    ~SessionLibraryPanel() override;

    QLineEdit *searchField() const { return m_search; }
    QTreeWidget *sessionList() const { return m_sessions; }
    QTreeWidget *searchResults() const { return m_hits; }
    QString statusText() const;
    // The session under the cursor of the list shown; empty when none.
    QString currentPath() const;
    QAction *newAction() const { return m_newAction; }
    QAction *renameAction() const { return m_renameAction; }
    QAction *deleteAction() const { return m_deleteAction; }
    // The library file of the conversation open in the window (shown in bold); empty for none.
    void setOpenSession(const QString &path);
    QString openSession() const { return m_openSession; }
    // Starts editing the current session's title in place (Rename, F2).
    void renameCurrent();
    // Asked before a confirmed deletion: a reason to refuse it (shown), or empty to go on.
    void setDeleteGuard(std::function<QString(const QString &path)> guard)
    {
        m_deleteGuard = std::move(guard);
    }
    // Says why a rename or a deletion failed, where the count of sessions is shown.
    void showProblem(const QString &text);
    // "Today 14:05", "Yesterday 09:12", "3 days ago", else the date: how a chat list dates.
    static QString relativeDate(const QDateTime &when, const QDateTime &now);

    // Wide enough for a title and the start of a match, docked beside the chat.
    QSize sizeHint() const override;

signals:
    void openRequested(const QString &path);
    void newRequested();
    // The user gave the session at \a path the title \a title (already trimmed, not empty).
    void renameRequested(const QString &path, const QString &title);
    // The session's file at \a path was deleted.
    void sessionDeleted(const QString &path);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    enum Column { TitleColumn, UpdatedColumn, ModelColumn, TurnsColumn };
    enum HitColumn { HitTitleColumn, SnippetColumn };

    QTreeWidget *visibleList() const;
    void showEntries();
    void onSearchTextChanged(const QString &text);
    void startSearch();
    void onSearchFinished(const QString &text, const QList<Loopscope::SessionSearchHit> &hits);
    void updateStatus();
    void updateActions();
    void activate(QTreeWidgetItem *item);
    void openCurrent();
    void showContextMenu(QTreeWidget *list, const QPoint &position);
    void askToDeleteCurrent();
    void onItemChanged(QTreeWidgetItem *item, int column);

    QPointer<SessionLibrary> m_library;
    QLineEdit *m_search;
    QStackedWidget *m_stack;
    QTreeWidget *m_sessions;
    QTreeWidget *m_hits;
    QLabel *m_status;
    QTimer *m_searchTimer;
    QAction *m_openAction;
    QAction *m_deleteAction;
    QAction *m_newAction;
    QAction *m_renameAction;
    QString m_openSession;
    std::function<QString(const QString &)> m_deleteGuard;
    bool m_filling = false; // items are being made: their changes are not the user's
    QPointer<QMessageBox> m_confirmation;
    QString m_searchedText; // the text the hits shown belong to; empty when none are
    bool m_searching = false;
    QString m_deleteError;
};

} // namespace Loopscope::Ui
