#include "agent/session/sessiondocument.h"

#include "agent/session/autosaver.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessionlibrary.h"

#include <QFileInfo>
#include <QtConcurrent>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

SessionDocument::SessionDocument(ChatSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    connect(&m_loading, &QFutureWatcher<TranscriptLoadResult>::finished, this, &SessionDocument::onLoaded);
    // Every finished turn changes the conversation; so does renaming it.
    connect(session->agent(), &Agent::turnFinished, this, [this] {
        ++m_turnsSinceKept;
        setModified(true);
    });
    connect(session, &ChatSession::titleChanged, this, [this] {
        if (!m_session->agent()->history().isEmpty())
            setModified(true);
    });
}

SessionDocument::~SessionDocument()
{
    m_loading.waitForFinished();
}

void SessionDocument::setAutosaver(Autosaver *autosaver)
{
    if (m_autosaver) {
        disconnect(m_autosaver, nullptr, this, nullptr);
        disconnect(this, nullptr, m_autosaver, nullptr);
    }
    m_autosaver = autosaver;
    if (!autosaver)
        return;
    connect(this, &SessionDocument::opened, autosaver, &Autosaver::adoptOpenedFile);
    connect(autosaver, &Autosaver::saved, this, &SessionDocument::onAutosaved);
    connect(autosaver, &Autosaver::errorChanged, this, &SessionDocument::autosaveErrorChanged);
}

QString SessionDocument::autosaveError() const
{
    return m_autosaver ? m_autosaver->error() : QString();
}

int SessionDocument::unsavedTurns() const
{
    // The file holds what came before; the library, what it has written since.
    return m_autosaver ? std::min(m_turnsSinceKept, m_autosaver->unwrittenTurns()) : m_turnsSinceKept;
}

void SessionDocument::onAutosaved(const QString &path)
{
    // A write of a conversation that has since been replaced says nothing about this one.
    if (!m_autosaver || path != m_autosaver->currentPath())
        return;
    // A file from elsewhere keeps its changes until it is saved; the library
    // holds every turn of anything else (a new session, an example, a library file).
    const bool fromElsewhere = !m_path.isEmpty() && !m_path.startsWith(u':') && !isLibraryFile(m_path);
    if (!fromElsewhere && !m_session->isBusy())
        setModified(false);
    emit autosaved(path);
}

bool SessionDocument::isLibraryFile(const QString &path) const
{
    return m_autosaver && SessionLibrary::isLibraryFile(m_autosaver->folder(), path);
}

QString SessionDocument::libraryPath() const
{
    return m_autosaver ? m_autosaver->currentPath() : QString();
}

QString SessionDocument::displayName() const
{
    if (!m_session->title().isEmpty())
        return m_session->title();
    if (!m_path.isEmpty())
        return QFileInfo(m_path).completeBaseName();
    return tr("Untitled");
}

void SessionDocument::open(const QString &path)
{
    if (m_loading.isRunning()) {
        emit openFailed(path, tr("Another session is still being opened."));
        return;
    }
    m_loadingPath = path;
    // The session takes the trace as a forest: its JSON is not kept.
    m_loading.setFuture(QtConcurrent::run(
        [path] { return TranscriptFile::load(path, TranscriptFile::TraceForm::ForestOnly); }));
}

void SessionDocument::onLoaded()
{
    const TranscriptLoadResult result = m_loading.result();
    const QString path = std::exchange(m_loadingPath, {});
    if (!result.transcript) {
        emit openFailed(path, result.error);
        return;
    }
    // The trace was read on the worker: taking it here keeps the GUI thread free.
    QString error;
    const bool restored = result.trace
                              ? m_session->restore(*result.transcript, std::move(*result.trace), &error)
                              : m_session->restore(*result.transcript, &error);
    if (!restored) {
        emit openFailed(path, error);
        return;
    }
    setPath(path);
    keepAllTurns();
    setModified(false);
    // An upgraded file is saved in the new format on the next save, not behind the
    // user's back; a library file gets the new format at its next autosave.
    if (result.upgradedFrom > 0 && !isLibraryFile(path))
        setModified(true);
    emit opened(path, result.upgradedFrom);
}

bool SessionDocument::openTranscript(const Transcript &transcript, const QString &path, QString *error)
{
    if (!m_session->restore(transcript, error))
        return false;
    setPath(path);
    keepAllTurns();
    setModified(false);
    return true;
}

bool SessionDocument::save(const QString &path, QString *error)
{
    if (!TranscriptFile::save(m_session->toTranscript(), path, error))
        return false;
    setPath(path);
    keepAllTurns();
    setModified(false);
    emit saved(path);
    return true;
}

bool SessionDocument::newSession()
{
    if (!m_session->clear())
        return false;
    setPath({});
    m_turnsSinceKept = 0;
    setModified(false);
    return true;
}

void SessionDocument::noteChange()
{
    setModified(true);
    if (m_autosaver)
        m_autosaver->saveNow();
}

void SessionDocument::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

void SessionDocument::setPath(const QString &path)
{
    if (m_path == path)
        return;
    m_path = path;
    emit pathChanged(path);
}

} // namespace Loopscope
