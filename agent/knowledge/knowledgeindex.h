#pragma once

#include "agent/knowledge/knowledgechunker.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

QT_BEGIN_NAMESPACE
class QSqlDatabase;
QT_END_NAMESPACE

namespace Loopscope {

// One passage a search found, and why it ranked.
struct KnowledgeHit
{
    QString path; // absolute
    int startLine = 0;
    int endLine = 0;
    double bm25 = 0; // FTS5's bm25(), sign turned: higher is better
    QString text;

    // path, startLine, endLine, score, bm25, text
    QJsonObject toJson() const;
    bool operator==(const KnowledgeHit &) const = default;
};

// What the index remembers of a file, to tell on the next run whether it changed.
struct KnowledgeFileRecord
{
    qint64 size = 0;
    qint64 modified = 0; // milliseconds since the epoch
    QByteArray hash;
};

struct KnowledgeSkippedFile
{
    QString path;
    QString reason;
    bool operator==(const KnowledgeSkippedFile &) const = default;
};

struct KnowledgeIndexStatus
{
    int files = 0;
    int chunks = 0;
    qint64 bytes = 0;      // the database with its write-ahead log
    QDateTime lastIndexed; // invalid before the first complete run
    QList<KnowledgeSkippedFile> skipped;
};

/*!
    One knowledge base's index: an SQLite database (through Qt SQL) with the
    files, their passages and an FTS5 table over the passages for BM25 search.
    It runs in WAL mode, so searches read while an indexer writes, and every
    file's change is one transaction, so a process killed while indexing leaves
    the index as it was after the last whole file. The schema carries a version
    (PRAGMA user_version); an index of another version, or one SQLite finds
    damaged, is rebuilt empty, with a notice saying so, for the indexer to fill.

    A connection belongs to the thread that opened it: open one per thread.
*/
class KnowledgeIndex final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::KnowledgeIndex)

public:
    static constexpr int SchemaVersion = 1;

    ~KnowledgeIndex();
    KnowledgeIndex(const KnowledgeIndex &) = delete;
    KnowledgeIndex &operator=(const KnowledgeIndex &) = delete;

    // Opens or creates the index at path; nullptr with *error set when it cannot.
    static std::unique_ptr<KnowledgeIndex> open(const QString &path, QString *error);

    // Deletes the database at path with its write-ahead log; an empty string, or why not.
    static QString removeFiles(const QString &path);

    // Said once after open(): e.g. that a damaged index was rebuilt.
    QStringList notices() const { return m_notices; }
    QString lastError() const { return m_lastError; }

    // The best passages for a question (KnowledgeQuery), at most topK; empty when no word matches.
    QList<KnowledgeHit> search(const QString &question, int topK);
    KnowledgeIndexStatus status();

    // Writing, for the indexer.
    QHash<QString, KnowledgeFileRecord> files();
    bool replaceFile(const QString &path, const KnowledgeFileRecord &record,
                     const QList<KnowledgeChunk> &chunks);
    bool touchFile(const QString &path, const KnowledgeFileRecord &record);
    bool removeFile(const QString &path);
    bool finishRun(const QList<KnowledgeSkippedFile> &skipped, const QDateTime &when);

private:
    KnowledgeIndex(QString path, QString connectionName);
    bool prepareSchema();
    bool createSchema();
    bool exec(const QString &statement);
    bool fail(const QString &what, const QString &why);

    QString m_path;
    QString m_connectionName;
    // Qt SQL stays out of this header: its users need no Qt SQL of their own.
    std::unique_ptr<QSqlDatabase> m_database;
    QStringList m_notices;
    QString m_lastError;
};

} // namespace Loopscope
