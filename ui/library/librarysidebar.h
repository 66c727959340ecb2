#pragma once

#include <QObject>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QAction;
class QSettings;
class QSplitter;
class QWidget;
QT_END_NAMESPACE

namespace Loopscope {
class SessionDocument;
class SessionLibrary;
} // namespace Loopscope

namespace Loopscope::Ui {

class SessionActions;
class SessionLibraryPanel;

/*!
    The conversation list as a chat app has it: the session library in a pane
    on the left of the window's content, collapsed and shown again with one
    action (View → Sessions Sidebar, Ctrl+3), its width and whether it is shown
    kept in the settings. Until the user shows or hides it, it is shown in a
    window at least WideWindow pixels wide and collapsed in a narrower one,
    where the chat needs the room. It carries the library's New, Rename and Delete out:
    renaming the conversation that is open goes through its session (the new
    title is saved with its turns, none lost), any other through the library
    file; deleting the open conversation's file starts a new one, and is
    refused while a turn of it runs. The main window only places it.
*/
class LibrarySidebar final : public QObject
{
    Q_OBJECT

public:
    // \a library may be null (no library folder): the pane then stays empty.
    LibrarySidebar(SessionLibrary *library, SessionActions *sessionActions, QSettings *state,
                   QWidget *window);

    // A splitter with the library on the left and \a content on the right: the window's centre.
    QSplitter *wrap(QWidget *content);
    SessionLibraryPanel *panel() const { return m_panel; }
    QSplitter *splitter() const { return m_splitter; }
    // Shows or collapses the pane (checkable).
    QAction *toggleAction() const { return m_toggle; }
    bool isShown() const;
    // Shows the pane and puts the keyboard in its search field.
    void showAndFocus();

    // The narrowest window the pane is shown in by default.
    static constexpr int WideWindow = 1000;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void setShown(bool shown);
    // Shown or not by the window's width, while the user has not chosen.
    void followWindowWidth();
    void rename(const QString &path, const QString &title);
    void onDeleted(const QString &path);
    QString refuseDeleting(const QString &path) const;
    bool isOpenSession(const QString &path) const;
    void updateOpenSession();
    void rememberWidth();

    QPointer<SessionLibrary> m_library;
    SessionActions *m_sessionActions;
    SessionDocument *m_document;
    QSettings *m_state;
    SessionLibraryPanel *m_panel = nullptr;
    QSplitter *m_splitter = nullptr;
    QAction *m_toggle;
    bool m_followingWidth = false; // the pane's state is the width's, not the user's choice
    bool m_applyingWidth = false;
};

} // namespace Loopscope::Ui
