#include "agent/session/sessionlibrary.h"

#include "agent/session/transcriptsearch.h"
#include "agent/trace/trace.h"
#include "agent/transcript/transcript.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QStandardPaths>
#include <QTimer>
#include <QtConcurrent>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

QFileInfoList sessionFiles(const QString &folder)
{
    // QSaveFile's temporary files ("<id>.loopscope.json.XXXXXX") do not match.
    return QDir(folder).entryInfoList({u"*"_s + SessionLibrary::fileSuffix()}, QDir::Files, QDir::Name);
}

bool newestFirst(const QDateTime &a, const QString &pathA, const QDateTime &b, const QString &pathB)
{
    if (a != b)
        return a > b;
    return pathA < pathB;
}

} // namespace

QString SessionLibrary::fileSuffix()
{
    return u".loopscope.json"_s;
}

QString SessionLibrary::defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/sessions"_s;
}

bool SessionLibrary::isLibraryFile(const QString &folder, const QString &path)
{
    const QFileInfo file(path);
    const QString name = file.fileName();
    if (folder.isEmpty() || !name.endsWith(fileSuffix()) || name.size() == fileSuffix().size())
        return false;
    const QDir dir(folder);
    if (QDir::cleanPath(file.absolutePath()) == QDir::cleanPath(dir.absolutePath()))
        return true;
    // The same folder reached through a symbolic link.
    const QString canonical = QFileInfo(file.absolutePath()).canonicalFilePath();
    return !canonical.isEmpty() && canonical == dir.canonicalPath();
}

SessionLibrary::SessionLibrary(const QString &folder, QObject *parent)
    : QObject(parent)
    , m_folder(QDir::cleanPath(folder))
    , m_watcher(new QFileSystemWatcher(this))
    , m_changeTimer(new QTimer(this))
{
    // A scan and a search may run side by side; superseded work ends at its next file.
    m_pool.setMaxThreadCount(2);
    connect(&m_refreshing, &QFutureWatcher<ScanResult>::finished, this, &SessionLibrary::onScanned);
    connect(&m_searching, &QFutureWatcher<SearchResult>::finished, this, &SessionLibrary::onSearched);
    // An autosave writes a temporary file and renames it: one refresh for the burst.
    m_changeTimer->setSingleShot(true);
    m_changeTimer->setInterval(100);
    connect(m_changeTimer, &QTimer::timeout, this, &SessionLibrary::refresh);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, m_changeTimer, qOverload<>(&QTimer::start));
    watchFolder();
}

SessionLibrary::~SessionLibrary()
{
    m_refreshing.cancel();
    m_searching.cancel();
    // Superseded searches may still be running without a watcher.
    m_pool.waitForDone();
}

void SessionLibrary::watchFolder()
{
    if (m_folder.isEmpty() || m_watcher->directories().contains(m_folder))
        return;
    if (QDir().mkpath(m_folder))
        m_watcher->addPath(m_folder);
}

void SessionLibrary::refresh()
{
    watchFolder();
    if (m_refreshing.isRunning()) {
        // The running scan may have missed the change: its result is dropped for a new one.
        m_refreshAgain = true;
        m_refreshing.cancel();
        return;
    }
    m_refreshAgain = false;
    m_refreshing.setFuture(QtConcurrent::run(&m_pool, &SessionLibrary::scan, m_folder, m_cache));
}

void SessionLibrary::scan(QPromise<ScanResult> &promise, const QString &folder,
                          const QHash<QString, Cached> &cache)
{
    ScanResult result;
    const QFileInfoList files = sessionFiles(folder);
    for (const QFileInfo &file : files) {
        if (promise.isCanceled())
            return;
        const QString path = file.absoluteFilePath();
        const QDateTime modified = file.lastModified().toUTC();
        const auto known = cache.constFind(path);
        if (known != cache.cend() && known->modified == modified && known->size == file.size()) {
            result.entries.append(known->entry);
            result.cache.insert(path, *known);
            continue;
        }
        const TranscriptLoadResult loaded = TranscriptFile::load(path);
        Entry entry;
        if (loaded.transcript) {
            entry = entryOf(file, *loaded.transcript);
        } else {
            entry.path = path;
            entry.sizeBytes = file.size();
            entry.updated = modified;
            entry.error = loaded.error.isEmpty() ? tr("The file could not be read.") : loaded.error;
        }
        result.entries.append(entry);
        result.cache.insert(path, {modified, file.size(), entry});
    }
    std::sort(result.entries.begin(), result.entries.end(), [](const Entry &a, const Entry &b) {
        return newestFirst(a.updated, a.path, b.updated, b.path);
    });
    promise.addResult(std::move(result));
}

SessionLibrary::Entry SessionLibrary::entryOf(const QFileInfo &file, const Transcript &transcript)
{
    Entry entry;
    entry.path = file.absoluteFilePath();
    entry.sizeBytes = file.size();
    entry.updated = transcript.updated.isValid() ? transcript.updated.toUTC() : file.lastModified().toUTC();
    entry.title = transcript.title;
    entry.model = transcript.config.model.model;
    entry.turnCount = transcript.turnCount();
    return entry;
}

void SessionLibrary::noteWritten(const Entry &written, const QDateTime &modified)
{
    if (!isLibraryFile(m_folder, written.path) || !written.isReadable())
        return;
    const Cached cached{modified.toUTC(), written.sizeBytes, written};
    m_cache.insert(written.path, cached);
    if (m_refreshing.isRunning())
        m_written.insert(written.path, cached);
}

void SessionLibrary::onScanned()
{
    if (m_refreshAgain) {
        refresh();
        return;
    }
    if (m_refreshing.isCanceled() || m_refreshing.future().resultCount() == 0)
        return;
    ScanResult result = m_refreshing.future().takeResult();
    m_entries = std::move(result.entries);
    m_cache = std::move(result.cache);
    // The scan started from the cache as it was; what was written meanwhile is newer.
    for (auto it = m_written.cbegin(); it != m_written.cend(); ++it) {
        const auto scanned = m_cache.constFind(it.key());
        if (scanned == m_cache.cend() || scanned->modified <= it->modified)
            m_cache.insert(it.key(), it.value());
    }
    m_written.clear();
    emit entriesChanged();
}

void SessionLibrary::search(const QString &text)
{
    // The watcher lets go of an older search: its results never arrive.
    m_searching.cancel();
    m_searching.setFuture(QtConcurrent::run(&m_pool, &SessionLibrary::find, m_folder, text));
}

void SessionLibrary::find(QPromise<SearchResult> &promise, const QString &folder, const QString &text)
{
    struct Found
    {
        QDateTime updated;
        Hit hit;
    };
    QList<Found> found;
    if (!text.isEmpty()) {
        const QFileInfoList files = sessionFiles(folder);
        for (const QFileInfo &file : files) {
            if (promise.isCanceled())
                return;
            // The forest alone: a sub-agent's words are searched in it, and it is the fast read.
            const TranscriptLoadResult loaded
                = TranscriptFile::load(file.absoluteFilePath(), TranscriptFile::TraceForm::ForestOnly);
            if (!loaded.transcript)
                continue;
            const Transcript &transcript = *loaded.transcript;
            const auto match = TranscriptSearch::find(transcript, loaded.trace.get(), text);
            if (!match)
                continue;
            const QDateTime updated
                = transcript.updated.isValid() ? transcript.updated.toUTC() : file.lastModified().toUTC();
            found.append(
                {updated, {file.absoluteFilePath(), transcript.title, match->snippet, match->messageIndex}});
        }
    }
    std::sort(found.begin(), found.end(), [](const Found &a, const Found &b) {
        return newestFirst(a.updated, a.hit.path, b.updated, b.hit.path);
    });
    SearchResult result{text, {}};
    result.hits.reserve(found.size());
    for (const Found &each : std::as_const(found))
        result.hits.append(each.hit);
    promise.addResult(std::move(result));
}

void SessionLibrary::onSearched()
{
    if (m_searching.isCanceled() || m_searching.future().resultCount() == 0)
        return;
    SearchResult result = m_searching.future().takeResult();
    emit searchFinished(result.text, result.hits);
}

bool SessionLibrary::remove(const QString &path, QString *error)
{
    if (!isLibraryFile(m_folder, path)) {
        if (error)
            *error = tr("\"%1\" is not a session of this library.").arg(QDir::toNativeSeparators(path));
        return false;
    }
    QFile file(path);
    if (!file.remove()) {
        if (error)
            *error
                = tr("Could not delete \"%1\": %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_cache.remove(absolute);
    const auto removed = m_entries.removeIf(
        [&](const Entry &entry) { return entry.path == absolute || entry.path == path; });
    emit fileRemoved(absolute);
    if (removed > 0)
        emit entriesChanged();
    return true;
}

void SessionLibrary::rename(const QString &path, const QString &title)
{
    if (!isLibraryFile(m_folder, path)) {
        emit renameFinished(
            path, title, tr("\"%1\" is not a session of this library.").arg(QDir::toNativeSeparators(path)));
        return;
    }
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path, title] {
        const QString error = watcher->result();
        watcher->deleteLater();
        emit renameFinished(path, title, error);
        // The folder watcher notices too; a direct refresh shows it at once.
        refresh();
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, &SessionLibrary::writeTitle, path, title));
}

QString SessionLibrary::writeTitle(const QString &path, const QString &title)
{
    TranscriptLoadResult loaded = TranscriptFile::load(path);
    if (!loaded.transcript) {
        return tr("Could not rename \"%1\": %2")
            .arg(QDir::toNativeSeparators(path),
                 loaded.error.isEmpty() ? tr("the file could not be read.") : loaded.error);
    }
    loaded.transcript->title = title;
    QString error;
    if (!TranscriptFile::save(*loaded.transcript, path, &error))
        return tr("Could not rename \"%1\": %2").arg(QDir::toNativeSeparators(path), error);
    return {};
}

} // namespace Loopscope
