#pragma once

#include "agent/transcript/transcript.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>

#include <optional>

namespace Loopscope {

class ChatSession;

/*!
    Keeps every finished turn on disk, so a crash or a kill loses at most the
    turn that was running. After each turn the session is written atomically
    (QSaveFile) to "<folder>/<id>.loopscope.json", where the id is chosen at the
    first save and kept until the conversation is cleared or replaced.

    The transcript is taken on the GUI thread (the trace lives there) and
    serialised and written on a worker. One write runs at a time; a snapshot
    taken meanwhile waits and replaces any older one still waiting, so an
    older snapshot never overwrites a newer one.
*/
class Autosaver final : public QObject
{
    Q_OBJECT

public:
    Autosaver(ChatSession *session, const QString &folder, QObject *parent = nullptr);
    // Waits for the running write and writes what is still waiting.
    ~Autosaver() override;

    QString folder() const { return m_folder; }
    // The file the conversation is saved to; empty until its first save.
    QString currentPath() const { return m_path; }
    bool isSaving() const { return m_busy; }

    // Saves now, e.g. after a rename; turns are saved without being asked.
    // Does nothing while a turn runs (its end saves) or before the first message.
    void saveNow();
    // The conversation was opened from \a path (call after ChatSession::restored):
    // a file of this library goes on being saved to; any other file stays as it
    // is and the conversation gets a library file of its own at its next save.
    void adoptOpenedFile(const QString &path);

signals:
    void saved(const QString &path);
    void failed(const QString &error);

private:
    struct Snapshot
    {
        Transcript transcript;
        QString path;
    };
    struct WriteResult
    {
        QString path;
        QString error; // empty on success
    };

    static WriteResult write(const Snapshot &snapshot);
    QString newPath() const;
    void startWrite(Snapshot snapshot);
    void onWritten();

    QPointer<ChatSession> m_session;
    QString m_folder;
    QString m_path;
    bool m_busy = false; // a write runs and its result has not been handled yet
    std::optional<Snapshot> m_waiting;
    QFutureWatcher<WriteResult> m_writing;
};

} // namespace Loopscope
