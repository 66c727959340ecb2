#pragma once

#include <QDateTime>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QThreadPool>

QT_BEGIN_NAMESPACE
class QFileSystemWatcher;
class QTimer;
QT_END_NAMESPACE

namespace Loopscope {

struct Transcript;

/*! One saved session as the library lists it. An unreadable file is listed too, with why. */
struct SessionLibraryEntry
{
    QString path;
    QString title;     // empty when the session has none or the file is unreadable
    QDateTime updated; // UTC; the file's modification time when the file does not say
    QString model;
    int turnCount = 0;
    qint64 sizeBytes = 0;
    QString error; // empty for a readable session

    bool isReadable() const { return error.isEmpty(); }
    bool operator==(const SessionLibraryEntry &) const = default;
};

/*! A session whose agents said the searched text (TranscriptSearch), at its first match. */
struct SessionSearchHit
{
    QString path;
    QString title;
    QString snippet;       // the words around the match, on one line; a sub-agent's begin with its name
    int messageIndex = -1; // in Transcript::messages
    bool operator==(const SessionSearchHit &) const = default;
};

/*!
    The folder where sessions are kept (the autosaved ones and any the user
    puts there): what is in it, newest first, and which sessions mention a
    text. Reading and searching the files happen off the GUI thread; a newer
    refresh or search supersedes an older one, whose results are dropped.
    The folder is watched, so files written into it show up on their own.
*/
class SessionLibrary final : public QObject
{
    Q_OBJECT

public:
    using Entry = SessionLibraryEntry;
    using Hit = SessionSearchHit;

    // Files the library lists end with this ("<id>.loopscope.json").
    static QString fileSuffix();
    // Where the app keeps its sessions: AppDataLocation/sessions.
    static QString defaultFolder();
    // Whether \a path names a session file directly inside \a folder.
    static bool isLibraryFile(const QString &folder, const QString &path);

    explicit SessionLibrary(const QString &folder, QObject *parent = nullptr);
    ~SessionLibrary() override;

    QString folder() const { return m_folder; }

    // Scans the folder asynchronously; entriesChanged() follows.
    void refresh();
    bool isRefreshing() const { return m_refreshing.isRunning(); }
    QList<Entry> entries() const { return m_entries; }

    // Looks for \a text (case-insensitive) in every session's messages;
    // searchFinished() follows, unless another search starts first.
    void search(const QString &text);
    bool isSearching() const { return m_searching.isRunning(); }

    // What the library lists for \a transcript read from (or just written to) \a file.
    static Entry entryOf(const QFileInfo &file, const Transcript &transcript);
    // A session file the app has just written (the autosave), listed as \a written with the file's
    // modification time \a modified: the next scans take it from here instead of reading the file
    // back, which would cost the whole file after every turn. A file changed since is read again.
    void noteWritten(const Loopscope::SessionLibraryEntry &written, const QDateTime &modified);

    // Deletes a session file of this library; false and *error otherwise.
    bool remove(const QString &path, QString *error = nullptr);

    // Changes the title stored inside a session file of this library (the file keeps its
    // name), reading and writing it off the GUI thread; renameFinished() follows. The
    // session open in the window is renamed through its ChatSession instead, so that its
    // unsaved turns are written with the new title.
    void rename(const QString &path, const QString &title);

signals:
    void entriesChanged();
    // remove() deleted the session file at \a path (absolute).
    void fileRemoved(const QString &path);
    // \a error is empty when the title was written.
    void renameFinished(const QString &path, const QString &title, const QString &error);
    void searchFinished(const QString &text, const QList<Loopscope::SessionSearchHit> &hits);

private:
    struct Cached
    {
        QDateTime modified;
        qint64 size = 0;
        Entry entry;
    };
    struct ScanResult
    {
        QList<Entry> entries;
        QHash<QString, Cached> cache;
    };
    struct SearchResult
    {
        QString text;
        QList<Hit> hits;
    };

    static void scan(QPromise<ScanResult> &promise, const QString &folder,
                     const QHash<QString, Cached> &cache);
    static void find(QPromise<SearchResult> &promise, const QString &folder, const QString &text);
    static QString writeTitle(const QString &path, const QString &title);

    void watchFolder();
    void onScanned();
    void onSearched();

    QString m_folder;
    QList<Entry> m_entries;
    QHash<QString, Cached> m_cache;   // what the last scan read, reused for unchanged files
    QHash<QString, Cached> m_written; // noted while a scan ran, which read the cache before
    bool m_refreshAgain = false;
    QThreadPool m_pool;
    QFutureWatcher<ScanResult> m_refreshing;
    QFutureWatcher<SearchResult> m_searching;
    QFileSystemWatcher *m_watcher;
    QTimer *m_changeTimer;
};

} // namespace Loopscope
