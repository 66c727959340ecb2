#pragma once

#include "agent/session/sessionlibrary.h"
#include "agent/transcript/transcript.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

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

    A failed write (a full disk, a folder that cannot be written) is a lasting
    state, not a passing event: error() says why until a write of this
    conversation succeeds, and the write is tried again at the next change and
    on a timer that backs off (from firstRetryMs, doubling, up to maxRetryMs).
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
    // Why the last write of this conversation failed; empty while its turns are on disk
    // (or before there was anything to save).
    QString error() const { return m_error; }
    // How many turns the library's file of this conversation holds, after its last good write.
    int savedTurns() const { return m_savedTurns; }
    // Turns that finished in this conversation and that no good write holds yet. Counted by
    // finished turn, not by length: an edited or regenerated turn replaces one and is unsaved
    // until written, though the conversation is no longer than the file's.
    int unwrittenTurns() const { return m_finishedTurns - m_writtenTurns; }

    static constexpr int DefaultFirstRetryMs = 5'000;
    static constexpr int DefaultMaxRetryMs = 300'000;
    // After a failure the write is tried again after firstMs, then twice as long each time, up to maxMs.
    void setRetryDelays(int firstMs, int maxMs);

    // Saves now, e.g. after a rename; turns are saved without being asked.
    // Does nothing while a turn runs (its end saves) or before the first message.
    void saveNow();
    // The conversation was opened from \a path (call after ChatSession::restored):
    // a file of this library goes on being saved to; any other file stays as it
    // is and the conversation gets a library file of its own at its next save.
    void adoptOpenedFile(const QString &path);
    // Keeps \a library's list in step with what is written (SessionLibrary::noteWritten()), and
    // never brings back a file the library deletes (discard()).
    void setLibrary(SessionLibrary *library);
    // The file at \a path was deleted: a write to it that is under way is deleted again when it
    // lands, one waiting is dropped, and the conversation gets a new file at its next save.
    void discard(const QString &path);

signals:
    void saved(const QString &path);
    // The same, with what a library lists for the file and the file's modification time, read on
    // the writing thread: SessionLibrary::noteWritten() takes it instead of reading the file back.
    void wrote(const Loopscope::SessionLibraryEntry &entry, const QDateTime &modified);
    void failed(const QString &error);
    // error() changed: a write failed (again, maybe for another reason), or one succeeded after
    // failures, or the conversation was replaced (its failure is no one's any more).
    void errorChanged(const QString &error);

private:
    struct Snapshot
    {
        Transcript transcript;
        QString path;
        int finishedTurns = 0; // how many turns had finished when it was taken
    };
    struct WriteResult
    {
        QString path;
        QString error; // empty on success
        int turns = 0;
        int finishedTurns = 0;
        SessionLibraryEntry entry; // what was written, on success
        QDateTime modified;
    };

    static WriteResult write(const Snapshot &snapshot);
    QString newPath() const;
    void startWrite(Snapshot snapshot);
    void startWaitingWrite();
    bool isDiscarded(const WriteResult &result);
    void onWritten();
    void onSavedCurrent(const WriteResult &result);
    void onTurnFinished();
    void onFailedCurrent(const QString &error);
    void forgetConversation();
    void setError(const QString &error);

    QPointer<ChatSession> m_session;
    QString m_folder;
    QString m_path;
    bool m_busy = false; // a write runs and its result has not been handled yet
    std::optional<Snapshot> m_waiting;
    QString m_writingPath;   // where the write under way goes
    QStringList m_discarded; // deleted while a write to them was under way
    QFutureWatcher<WriteResult> m_writing;
    QString m_error;
    int m_savedTurns = 0;
    int m_finishedTurns = 0; // in this conversation, since it was opened or begun
    int m_writtenTurns = 0;  // of those, how many the last good write holds
    QTimer m_retry;
    int m_firstRetryMs = DefaultFirstRetryMs;
    int m_maxRetryMs = DefaultMaxRetryMs;
    int m_nextRetryMs = DefaultFirstRetryMs;
};

} // namespace Loopscope
