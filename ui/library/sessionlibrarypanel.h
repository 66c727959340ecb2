#pragma once

#include "agent/session/sessionlibrary.h"

#include <QPointer>
#include <QWidget>

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
    window to open it; Delete asks first, without blocking. Unreadable files
    are listed greyed, with their error as the tooltip. The library comes
    from outside and is not owned.
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

    // Wide enough for a title and the start of a match, docked beside the chat.
    QSize sizeHint() const override;

signals:
    void openRequested(const QString &path);

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

    QPointer<SessionLibrary> m_library;
    QLineEdit *m_search;
    QStackedWidget *m_stack;
    QTreeWidget *m_sessions;
    QTreeWidget *m_hits;
    QLabel *m_status;
    QTimer *m_searchTimer;
    QAction *m_openAction;
    QAction *m_deleteAction;
    QPointer<QMessageBox> m_confirmation;
    QString m_searchedText; // the text the hits shown belong to; empty when none are
    bool m_searching = false;
    QString m_deleteError;
};

} // namespace Loopscope::Ui
