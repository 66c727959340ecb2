#pragma once

#include <QObject>
#include <QStringList>

#include <functional>

QT_BEGIN_NAMESPACE
class QAction;
class QMenu;
class QSettings;
class QWidget;
QT_END_NAMESPACE

namespace Loopscope {
class SessionDocument;
struct Transcript;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The File menu's work on sessions: New, Open, Open Recent, Save, Save As,
    Import and Export, with the questions a user expects ("Save the changes
    first?") asked without blocking, and errors shown without losing the
    conversation that is open. The main window puts the actions where it
    likes and asks canClose() before it goes.
*/
class SessionActions final : public QObject
{
    Q_OBJECT

public:
    SessionActions(SessionDocument *document, QSettings *state, QWidget *window);

    QAction *newAction() const { return m_new; }
    QAction *openAction() const { return m_open; }
    QMenu *recentMenu() const { return m_recentMenu; }
    QAction *saveAction() const { return m_save; }
    QAction *saveAsAction() const { return m_saveAs; }
    QAction *importAction() const { return m_import; }
    QMenu *exportMenu() const { return m_exportMenu; }
    SessionDocument *document() const { return m_document; }

    // Where Open's file picker starts: the session library's folder.
    void setLibraryFolder(const QString &folder) { m_libraryFolder = folder; }
    QString libraryFolder() const { return m_libraryFolder; }

    QStringList recentFiles() const;
    // The session open last: the file last opened or saved, or the library file
    // last autosaved; empty when it has gone or a new session replaced it.
    QString lastSession() const;
    void openFile(const QString &path);
    // Opens a bundled example (a resource path) as an unsaved session.
    void openExample(const QString &resourcePath);

    // Runs \a then once unsaved changes are saved or discarded; never if the user cancels.
    void whenChangesAreSettled(const std::function<void()> &then);

signals:
    void message(const QString &text);

private:
    void chooseFileToOpen();
    void save();
    void saveAs(const std::function<void()> &then = {});
    void chooseFileToImport();
    void exportAs(const QString &format);
    bool writeTo(const QString &path);
    void addRecent(const QString &path);
    void setLastSession(const QString &path);
    void rebuildRecentMenu();
    void showError(const QString &title, const QString &text);

    SessionDocument *m_document;
    QSettings *m_state;
    QWidget *m_window;
    QString m_libraryFolder;
    QAction *m_new;
    QAction *m_open;
    QMenu *m_recentMenu;
    QAction *m_save;
    QAction *m_saveAs;
    QAction *m_import;
    QMenu *m_exportMenu;
};

} // namespace Loopscope::Ui
