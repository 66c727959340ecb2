#pragma once

#include "agent/transcript/transcript.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>

namespace Loopscope {

class Autosaver;
class ChatSession;

/*!
    The ChatSession as a document: the file it was opened from or saved to,
    whether it changed since, and opening and saving without blocking the GUI
    thread (files are read and parsed with QtConcurrent). A failed open
    leaves the current conversation untouched.

    With an Autosaver, a conversation whose every turn is in the library (a
    new one, an example continued, a library file) is not "modified": only a
    file from elsewhere with turns it does not hold yet needs saving.
*/
class SessionDocument final : public QObject
{
    Q_OBJECT

public:
    explicit SessionDocument(ChatSession *session, QObject *parent = nullptr);
    ~SessionDocument() override;

    ChatSession *session() const { return m_session; }
    // Keeps the library's file in step: an opened library file goes on being
    // autosaved to, and what the autosaver wrote is no longer an unsaved change.
    void setAutosaver(Autosaver *autosaver);
    QString path() const { return m_path; }
    // The library file this conversation is autosaved to; empty before its first save or
    // without an autosaver. Beside path(): a new conversation has a library file but no path.
    QString libraryPath() const;
    // Turns that neither the file nor the library holds.
    bool isModified() const { return m_modified; }
    // How many finished turns are in no file: neither the one opened or saved nor the library's.
    int unsavedTurns() const;
    // Why the autosaver could not keep the last turns in the library; empty while it can.
    QString autosaveError() const;
    bool isBusy() const { return m_loading.isRunning(); }
    // What the window title shows: the title, else the file name, else "Untitled".
    QString displayName() const;

    // Reads and restores \a path asynchronously; opened() or openFailed() follows.
    void open(const QString &path);
    // Replaces the conversation with a transcript in hand (an import, an example).
    // \a path may be empty: the session then has no file until saved.
    bool openTranscript(const Transcript &transcript, const QString &path, QString *error = nullptr);
    // Writes atomically; false and *error on failure, nothing changed then.
    bool save(const QString &path, QString *error = nullptr);
    // A new, empty conversation with no file.
    bool newSession();
    // Something beside the turns changed and is saved with them (a playground
    // variant in the trace): an unsaved change, autosaved like a turn.
    void noteChange();

signals:
    void modifiedChanged(bool modified);
    void pathChanged(const QString &path);
    void opened(const QString &path, int upgradedFrom);
    void openFailed(const QString &path, const QString &error);
    void saved(const QString &path);
    // The autosaver wrote this conversation to \a path in the library.
    void autosaved(const QString &path);
    // autosaveError() changed: it failed (a lasting state), or a later write succeeded.
    void autosaveErrorChanged(const QString &error);

private:
    void setModified(bool modified);
    void setPath(const QString &path);
    // The conversation as it is now is in a file of its own (opened or saved).
    void keepAllTurns() { m_turnsSinceKept = 0; }
    void onLoaded();
    void onAutosaved(const QString &path);
    // Whether the autosaver keeps \a path itself up to date (a library file).
    bool isLibraryFile(const QString &path) const;

    ChatSession *m_session;
    QString m_path;
    bool m_modified = false;
    int m_turnsSinceKept = 0; // turns finished since the file was opened or written
    QString m_loadingPath;
    QFutureWatcher<TranscriptLoadResult> m_loading;
    QPointer<Autosaver> m_autosaver;
};

} // namespace Loopscope
