#include "agent/session/autosaver.h"

#include "agent/session/chatsession.h"
#include "agent/session/sessionlibrary.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QtConcurrent>

#include <cerrno>
#include <cstring>

using namespace Qt::StringLiterals;

namespace Loopscope {

Autosaver::Autosaver(ChatSession *session, const QString &folder, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_folder(QDir::cleanPath(folder))
{
    Q_ASSERT(session);
    connect(&m_writing, &QFutureWatcher<WriteResult>::finished, this, &Autosaver::onWritten);
    // Every outcome changed the history: a failed or cancelled turn is kept too.
    connect(session->agent(), &Agent::turnFinished, this, &Autosaver::onTurnFinished);
    // Another conversation: a new file at its next save (adoptOpenedFile() may name one).
    connect(session, &ChatSession::cleared, this, &Autosaver::forgetConversation);
    connect(session, &ChatSession::restored, this, &Autosaver::forgetConversation);
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &Autosaver::saveNow);
}

void Autosaver::setRetryDelays(int firstMs, int maxMs)
{
    m_firstRetryMs = std::max(1, firstMs);
    m_maxRetryMs = std::max(m_firstRetryMs, maxMs);
    m_nextRetryMs = m_firstRetryMs;
}

void Autosaver::onTurnFinished()
{
    ++m_finishedTurns;
    saveNow();
}

void Autosaver::forgetConversation()
{
    m_path.clear();
    m_savedTurns = 0;
    m_finishedTurns = 0;
    m_writtenTurns = 0;
    m_retry.stop();
    m_nextRetryMs = m_firstRetryMs;
    setError({});
}

void Autosaver::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged(error);
}

Autosaver::~Autosaver()
{
    m_writing.waitForFinished();
    // The last turn before quitting belongs on disk as much as the others.
    if (m_waiting)
        write(*m_waiting);
}

void Autosaver::saveNow()
{
    // A running turn is saved when it ends, whole.
    if (!m_session || m_session->isBusy() || m_session->agent()->history().isEmpty())
        return;
    if (m_path.isEmpty())
        m_path = newPath();
    Snapshot snapshot{m_session->toTranscript(), m_path, m_finishedTurns};
    if (m_busy) {
        m_waiting = std::move(snapshot);
        return;
    }
    startWrite(std::move(snapshot));
}

void Autosaver::adoptOpenedFile(const QString &path)
{
    m_path = SessionLibrary::isLibraryFile(m_folder, path) ? QFileInfo(path).absoluteFilePath() : QString();
}

QString Autosaver::newPath() const
{
    // Sorts by creation in a file manager, and two windows started in the same second differ.
    const QString stamp = QDateTime::currentDateTimeUtc().toString(u"yyyyMMdd-HHmmss"_s);
    const QDir folder(m_folder);
    for (;;) {
        const QString random = u"%1"_s.arg(QRandomGenerator::global()->bounded(0x10000), 4, 16, QChar(u'0'));
        const QString path = folder.absoluteFilePath(stamp + u'-' + random + SessionLibrary::fileSuffix());
        if (!QFile::exists(path))
            return path;
    }
}

void Autosaver::setLibrary(SessionLibrary *library)
{
    connect(this, &Autosaver::wrote, library, &SessionLibrary::noteWritten);
    connect(library, &SessionLibrary::fileRemoved, this, &Autosaver::discard);
}

void Autosaver::discard(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (m_waiting && m_waiting->path == absolute)
        m_waiting.reset();
    if (m_busy && m_writingPath == absolute && !m_discarded.contains(absolute))
        m_discarded.append(absolute);
    if (m_path == absolute)
        forgetConversation();
}

void Autosaver::startWaitingWrite()
{
    if (!m_waiting)
        return;
    Snapshot next = std::move(*m_waiting);
    m_waiting.reset();
    startWrite(std::move(next));
}

bool Autosaver::isDiscarded(const WriteResult &result)
{
    if (!m_discarded.removeOne(result.path))
        return false;
    QFile::remove(result.path);
    return true;
}

void Autosaver::startWrite(Snapshot snapshot)
{
    m_busy = true;
    m_writingPath = snapshot.path;
    m_writing.setFuture(QtConcurrent::run(&Autosaver::write, std::move(snapshot)));
}

Autosaver::WriteResult Autosaver::write(const Snapshot &snapshot)
{
    WriteResult result{snapshot.path, {}, snapshot.transcript.turnCount(), snapshot.finishedTurns};
    const QString folder = QFileInfo(snapshot.path).absolutePath();
    errno = 0;
    if (!QDir().mkpath(folder)) {
        const int cause = errno;
        result.error
            = cause != 0
                  ? tr("Could not create the session folder \"%1\": %2.")
                        .arg(QDir::toNativeSeparators(folder), QString::fromLocal8Bit(std::strerror(cause)))
                  : tr("Could not create the session folder \"%1\".").arg(QDir::toNativeSeparators(folder));
        return result;
    }
    QString error;
    if (!TranscriptFile::save(snapshot.transcript, snapshot.path, &error)) {
        result.error = tr("Could not autosave the session to \"%1\": %2")
                           .arg(QDir::toNativeSeparators(snapshot.path), error);
        return result;
    }
    const QFileInfo written(snapshot.path);
    result.entry = SessionLibrary::entryOf(written, snapshot.transcript);
    result.modified = written.lastModified().toUTC();
    return result;
}

void Autosaver::onWritten()
{
    const WriteResult result = m_writing.result();
    m_busy = false;
    // Deleted while it was written: the file goes again, and nobody hears of the write.
    if (isDiscarded(result)) {
        startWaitingWrite();
        return;
    }
    // The next write starts before anyone hears of this one, so a slot that
    // saves again queues behind it instead of racing it.
    startWaitingWrite();
    // A write of a conversation since replaced says nothing about this one.
    if (!result.path.isEmpty() && result.path == m_path) {
        if (result.error.isEmpty())
            onSavedCurrent(result);
        else
            onFailedCurrent(result.error);
    }
    if (result.error.isEmpty()) {
        emit wrote(result.entry, result.modified);
        emit saved(result.path);
    } else
        emit failed(result.error);
}

void Autosaver::onSavedCurrent(const WriteResult &result)
{
    m_savedTurns = result.turns;
    m_writtenTurns = std::max(m_writtenTurns, result.finishedTurns);
    m_retry.stop();
    m_nextRetryMs = m_firstRetryMs;
    setError({});
}

void Autosaver::onFailedCurrent(const QString &error)
{
    // Tried again later, and sooner at the next change (a newer snapshot waiting goes first).
    if (!m_busy) {
        m_retry.start(m_nextRetryMs);
        m_nextRetryMs = std::min(m_maxRetryMs, m_nextRetryMs * 2);
    }
    setError(error);
}

} // namespace Loopscope
