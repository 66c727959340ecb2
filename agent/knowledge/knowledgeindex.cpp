#include "agent/knowledge/knowledgeindex.h"

#include "agent/knowledge/knowledgequery.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>

using namespace Qt::StringLiterals;

namespace Loopscope {

QJsonObject KnowledgeHit::toJson() const
{
    return {
        {u"path"_s, path},  {u"startLine"_s, startLine}, {u"endLine"_s, endLine},
        {u"score"_s, bm25}, {u"bm25"_s, bm25},           {u"text"_s, text},
    };
}

static QString nextConnectionName()
{
    static std::atomic<int> counter{0};
    return u"loopscope-knowledge-%1"_s.arg(counter.fetch_add(1));
}

KnowledgeIndex::KnowledgeIndex(QString path, QString connectionName)
    : m_path(std::move(path))
    , m_connectionName(std::move(connectionName))
{}

KnowledgeIndex::~KnowledgeIndex()
{
    if (m_database)
        m_database->close();
    m_database.reset();
    QSqlDatabase::removeDatabase(m_connectionName);
}

std::unique_ptr<KnowledgeIndex> KnowledgeIndex::open(const QString &path, QString *error)
{
    std::unique_ptr<KnowledgeIndex> index(new KnowledgeIndex(path, nextConnectionName()));
    if (!QSqlDatabase::isDriverAvailable(u"QSQLITE"_s)) {
        *error = tr("Qt's SQLite driver (QSQLITE) is not installed; on Debian it is the package "
                    "libqt6sql6-sqlite.");
        return nullptr;
    }
    index->m_database
        = std::make_unique<QSqlDatabase>(QSqlDatabase::addDatabase(u"QSQLITE"_s, index->m_connectionName));
    index->m_database->setDatabaseName(path);
    index->m_database->setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=10000"_s);
    if (!index->m_database->open()) {
        *error = tr("Cannot open the index '%1': %2").arg(path, index->m_database->lastError().text());
        return nullptr;
    }
    if (!index->prepareSchema()) {
        *error = index->m_lastError;
        return nullptr;
    }
    return index;
}

QString KnowledgeIndex::removeFiles(const QString &path)
{
    for (const QString &file : QStringList{path, path + u"-wal"_s, path + u"-shm"_s}) {
        if (QFile::exists(file) && !QFile::remove(file))
            return tr("Cannot remove '%1'.").arg(file);
    }
    return {};
}

bool KnowledgeIndex::exec(const QString &statement)
{
    QSqlQuery query(*m_database);
    if (query.exec(statement))
        return true;
    return fail(statement, query.lastError().text());
}

bool KnowledgeIndex::fail(const QString &what, const QString &why)
{
    m_lastError = tr("The index '%1' failed (%2): %3").arg(m_path, what, why);
    return false;
}

// The version of the schema in the file: 0 for a new file, -1 when SQLite cannot read it.
static int storedVersion(QSqlDatabase &database)
{
    QSqlQuery query(database);
    if (!query.exec(u"PRAGMA journal_mode=WAL"_s))
        return -1;
    if (!query.exec(u"SELECT count(*) FROM sqlite_master"_s) || !query.next())
        return -1;
    const int tables = query.value(0).toInt();
    if (!query.exec(u"PRAGMA user_version"_s) || !query.next())
        return -1;
    const int version = query.value(0).toInt();
    return tables == 0 ? 0 : (version == 0 ? -1 : version);
}

bool KnowledgeIndex::prepareSchema()
{
    const int version = storedVersion(*m_database);
    if (version == SchemaVersion)
        return exec(u"PRAGMA synchronous=NORMAL"_s) && exec(u"PRAGMA foreign_keys=ON"_s);
    if (version != 0) {
        // Damaged, or written by another version: an index is derived data, so start it again.
        m_notices.append(version < 0 ? tr("The index '%1' was damaged; it has been rebuilt empty and is "
                                          "filled again by the next indexing.")
                                           .arg(m_path)
                                     : tr("The index '%1' has schema version %2, this Loopscope uses %3; it "
                                          "has been rebuilt empty and is filled again by the next indexing.")
                                           .arg(m_path)
                                           .arg(version)
                                           .arg(SchemaVersion));
        m_database->close();
        if (const QString error = removeFiles(m_path); !error.isEmpty())
            return fail(tr("rebuilding"), error);
        if (!m_database->open())
            return fail(tr("rebuilding"), m_database->lastError().text());
        if (storedVersion(*m_database) != 0)
            return fail(tr("rebuilding"), tr("the new file is not empty"));
    }
    return createSchema() && exec(u"PRAGMA synchronous=NORMAL"_s) && exec(u"PRAGMA foreign_keys=ON"_s);
}

bool KnowledgeIndex::createSchema()
{
    const QStringList statements{
        u"CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, "
        "modified INTEGER NOT NULL, hash BLOB NOT NULL)"_s,
        u"CREATE TABLE chunks(id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id), "
        "start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, text TEXT NOT NULL)"_s,
        u"CREATE INDEX chunks_by_file ON chunks(file_id)"_s,
        // The passages' text is kept once, in chunks; the FTS5 table indexes it (external content).
        u"CREATE VIRTUAL TABLE chunk_text USING fts5(text, content='chunks', content_rowid='id', "
        "tokenize='porter unicode61 remove_diacritics 2')"_s,
        u"CREATE TRIGGER chunks_inserted AFTER INSERT ON chunks BEGIN "
        "INSERT INTO chunk_text(rowid, text) VALUES (new.id, new.text); END"_s,
        u"CREATE TRIGGER chunks_deleted AFTER DELETE ON chunks BEGIN "
        "INSERT INTO chunk_text(chunk_text, rowid, text) VALUES ('delete', old.id, old.text); END"_s,
        u"CREATE TABLE skipped(path TEXT PRIMARY KEY, reason TEXT NOT NULL)"_s,
        u"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"_s,
        u"PRAGMA user_version=%1"_s.arg(SchemaVersion),
    };
    if (!m_database->transaction())
        return fail(tr("creating"), m_database->lastError().text());
    for (const QString &statement : statements) {
        if (!exec(statement)) {
            m_database->rollback();
            return false;
        }
    }
    return m_database->commit() || fail(tr("creating"), m_database->lastError().text());
}

QList<KnowledgeHit> KnowledgeIndex::search(const QString &question, int topK)
{
    const QString match = KnowledgeQuery::matchExpression(question);
    if (match.isEmpty() || topK <= 0)
        return {};
    QSqlQuery query(*m_database);
    query.setForwardOnly(true);
    query.prepare(u"SELECT f.path, c.start_line, c.end_line, bm25(chunk_text), c.text "
                  "FROM chunk_text JOIN chunks c ON c.id = chunk_text.rowid JOIN files f ON f.id = c.file_id "
                  "WHERE chunk_text MATCH ? ORDER BY bm25(chunk_text) LIMIT ?"_s);
    query.addBindValue(match);
    query.addBindValue(topK);
    if (!query.exec()) {
        fail(tr("searching"), query.lastError().text());
        return {};
    }
    QList<KnowledgeHit> hits;
    while (query.next()) {
        hits.append({query.value(0).toString(), query.value(1).toInt(), query.value(2).toInt(),
                     -query.value(3).toDouble(), query.value(4).toString()});
    }
    return hits;
}

KnowledgeIndexStatus KnowledgeIndex::status()
{
    KnowledgeIndexStatus status;
    QSqlQuery query(*m_database);
    if (query.exec(u"SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM chunks)"_s) && query.next()) {
        status.files = query.value(0).toInt();
        status.chunks = query.value(1).toInt();
    }
    if (query.exec(u"SELECT value FROM meta WHERE key = 'lastIndexed'"_s) && query.next())
        status.lastIndexed = QDateTime::fromString(query.value(0).toString(), Qt::ISODateWithMs);
    if (query.exec(u"SELECT path, reason FROM skipped ORDER BY path"_s)) {
        while (query.next())
            status.skipped.append({query.value(0).toString(), query.value(1).toString()});
    }
    status.bytes = QFileInfo(m_path).size() + QFileInfo(m_path + u"-wal"_s).size();
    return status;
}

QHash<QString, KnowledgeFileRecord> KnowledgeIndex::files()
{
    QHash<QString, KnowledgeFileRecord> files;
    QSqlQuery query(*m_database);
    query.setForwardOnly(true);
    if (!query.exec(u"SELECT path, size, modified, hash FROM files"_s)) {
        fail(tr("reading"), query.lastError().text());
        return files;
    }
    while (query.next()) {
        files.insert(query.value(0).toString(), {query.value(1).toLongLong(), query.value(2).toLongLong(),
                                                 query.value(3).toByteArray()});
    }
    return files;
}

bool KnowledgeIndex::replaceFile(const QString &path, const KnowledgeFileRecord &record,
                                 const QList<KnowledgeChunk> &chunks)
{
    if (!m_database->transaction())
        return fail(tr("writing"), m_database->lastError().text());
    auto rollback = [this](const QSqlQuery &query) {
        fail(tr("writing"), query.lastError().text());
        m_database->rollback();
        return false;
    };
    QSqlQuery query(*m_database);
    query.prepare(u"DELETE FROM chunks WHERE file_id = (SELECT id FROM files WHERE path = ?)"_s);
    query.addBindValue(path);
    if (!query.exec())
        return rollback(query);
    query.prepare(u"INSERT INTO files(path, size, modified, hash) VALUES (?, ?, ?, ?) ON CONFLICT(path) "
                  "DO UPDATE SET size = excluded.size, modified = excluded.modified, hash = excluded.hash "
                  "RETURNING id"_s);
    query.addBindValue(path);
    query.addBindValue(record.size);
    query.addBindValue(record.modified);
    query.addBindValue(record.hash);
    if (!query.exec() || !query.next())
        return rollback(query);
    const qint64 fileId = query.value(0).toLongLong();
    query.finish();
    QSqlQuery insert(*m_database);
    insert.prepare(u"INSERT INTO chunks(file_id, start_line, end_line, text) VALUES (?, ?, ?, ?)"_s);
    for (const KnowledgeChunk &chunk : chunks) {
        insert.bindValue(0, fileId);
        insert.bindValue(1, chunk.startLine);
        insert.bindValue(2, chunk.endLine);
        insert.bindValue(3, chunk.text);
        if (!insert.exec())
            return rollback(insert);
    }
    return m_database->commit() || fail(tr("writing"), m_database->lastError().text());
}

bool KnowledgeIndex::touchFile(const QString &path, const KnowledgeFileRecord &record)
{
    QSqlQuery query(*m_database);
    query.prepare(u"UPDATE files SET size = ?, modified = ? WHERE path = ?"_s);
    query.addBindValue(record.size);
    query.addBindValue(record.modified);
    query.addBindValue(path);
    return query.exec() || fail(tr("writing"), query.lastError().text());
}

bool KnowledgeIndex::removeFile(const QString &path)
{
    if (!m_database->transaction())
        return fail(tr("writing"), m_database->lastError().text());
    QSqlQuery query(*m_database);
    query.prepare(u"DELETE FROM chunks WHERE file_id = (SELECT id FROM files WHERE path = ?)"_s);
    query.addBindValue(path);
    bool ok = query.exec();
    if (ok) {
        query.prepare(u"DELETE FROM files WHERE path = ?"_s);
        query.addBindValue(path);
        ok = query.exec();
    }
    if (!ok) {
        fail(tr("writing"), query.lastError().text());
        m_database->rollback();
        return false;
    }
    return m_database->commit() || fail(tr("writing"), m_database->lastError().text());
}

bool KnowledgeIndex::finishRun(const QList<KnowledgeSkippedFile> &skipped, const QDateTime &when)
{
    if (!m_database->transaction())
        return fail(tr("writing"), m_database->lastError().text());
    QSqlQuery query(*m_database);
    bool ok = query.exec(u"DELETE FROM skipped"_s);
    query.prepare(u"INSERT OR REPLACE INTO skipped(path, reason) VALUES (?, ?)"_s);
    for (qsizetype i = 0; ok && i < skipped.size(); ++i) {
        query.bindValue(0, skipped[i].path);
        query.bindValue(1, skipped[i].reason);
        ok = query.exec();
    }
    if (ok) {
        query.prepare(u"INSERT OR REPLACE INTO meta(key, value) VALUES ('lastIndexed', ?)"_s);
        query.addBindValue(when.toString(Qt::ISODateWithMs));
        ok = query.exec();
    }
    if (!ok) {
        fail(tr("writing"), query.lastError().text());
        m_database->rollback();
        return false;
    }
    return m_database->commit() || fail(tr("writing"), m_database->lastError().text());
}

} // namespace Loopscope
