#include "agent/session/knowledgebasesmodel.h"

#include "agent/session/knowledgeattachment.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Read on a pool thread: opening an index may rebuild it, and status() counts rows.
std::pair<KnowledgeIndexStatus, QString> readStatus(const QString &databasePath)
{
    QString error;
    const auto index = KnowledgeIndex::open(databasePath, &error);
    if (!index)
        return {{}, error};
    KnowledgeIndexStatus status = index->status();
    return {status, index->lastError()};
}

} // namespace

KnowledgeBasesModel::KnowledgeBasesModel(QString directory, QObject *parent)
    : QAbstractListModel(parent)
    , m_library(std::move(directory))
{
    m_watcher.setIgnoredDirectory(m_library.directory());
    connect(&m_watcher, &KnowledgeFolderWatcher::changed, this, &KnowledgeBasesModel::reindex);
    connect(&m_watcher, &KnowledgeFolderWatcher::pathMissing, this, &KnowledgeBasesModel::onPathMissing);
    reload();
}

KnowledgeBasesModel::~KnowledgeBasesModel()
{
    // A base removed while it was indexed goes now: its run stops at the next file.
    const QList<KnowledgeIndexJob *> removing = m_removing.keys();
    for (KnowledgeIndexJob *job : removing) {
        job->disconnect(this);
        const QString name = m_removing.take(job);
        delete job; // cancels and waits
        m_library.remove(name);
    }
    // The other jobs, children, cancel and wait.
}

void KnowledgeBasesModel::watchRows()
{
    QList<KnowledgeBaseDefinition> bases;
    for (const Row &row : std::as_const(m_rows))
        bases.append(row.base);
    m_watcher.setBases(bases);
}

void KnowledgeBasesModel::finishRemoval(KnowledgeIndexJob *job)
{
    const QString name = m_removing.take(job);
    job->deleteLater();
    if (const QString error = m_library.remove(name); !error.isEmpty())
        emit message(error);
}

void KnowledgeBasesModel::reload()
{
    beginResetModel();
    m_rows.clear();
    for (const KnowledgeBaseDefinition &base : m_library.bases())
        m_rows.append(Row{base, {}, {}, nullptr, false, 0, 0, KnowledgeIndexJob::Phase::Files});
    endResetModel();
    watchRows();
    for (const Row &row : std::as_const(m_rows))
        loadStatus(row.base.name);
}

int KnowledgeBasesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant KnowledgeBasesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole: return row.base.name;
    case FilesRole: return row.status.files;
    case ChunksRole: return row.status.chunks;
    case BytesRole: return row.status.bytes;
    case LastIndexedRole: return row.status.lastIndexed;
    case EmbeddingModelRole: return row.base.embedding.model;
    case EmbeddedChunksRole: return row.status.embeddedChunks;
    case PathsRole: return row.base.paths;
    case SkippedRole: {
        QStringList skipped;
        for (const KnowledgeSkippedFile &file : row.status.skipped)
            skipped.append(tr("%1: %2").arg(file.path, file.reason));
        return skipped;
    }
    case ProblemsRole: return row.problems;
    case IndexingRole: return row.job != nullptr || row.awaitingKey;
    case ProgressDoneRole: return row.done;
    case ProgressTotalRole: return row.total;
    case ProgressPhaseRole: return int(row.phase);
    default: return {};
    }
}

QHash<int, QByteArray> KnowledgeBasesModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{FilesRole, "files"},
                  {ChunksRole, "chunks"},
                  {BytesRole, "bytes"},
                  {LastIndexedRole, "lastIndexed"},
                  {EmbeddingModelRole, "embeddingModel"},
                  {EmbeddedChunksRole, "embeddedChunks"},
                  {PathsRole, "paths"},
                  {SkippedRole, "skipped"},
                  {ProblemsRole, "problems"},
                  {IndexingRole, "indexing"},
                  {ProgressDoneRole, "progressDone"},
                  {ProgressTotalRole, "progressTotal"},
                  {ProgressPhaseRole, "progressPhase"}});
    return names;
}

int KnowledgeBasesModel::rowOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).base.name == name)
            return int(i);
    }
    return -1;
}

QStringList KnowledgeBasesModel::names() const
{
    QStringList names;
    for (const Row &row : m_rows)
        names.append(row.base.name);
    return names;
}

bool KnowledgeBasesModel::isIndexing(const QString &name) const
{
    const int row = rowOf(name);
    return row >= 0 && (m_rows.at(row).job || m_rows.at(row).awaitingKey);
}

QString KnowledgeBasesModel::add(const KnowledgeBaseDefinition &definition)
{
    if (const QString error = m_library.add(definition); !error.isEmpty())
        return error;
    const std::optional<KnowledgeBaseDefinition> added = m_library.base(definition.name);
    if (!added)
        return tr("The knowledge base '%1' was written but cannot be read back.").arg(definition.name);
    qsizetype at = 0;
    while (at < m_rows.size() && m_rows.at(at).base.name < added->name)
        ++at;
    beginInsertRows({}, int(at), int(at));
    m_rows.insert(at, Row{*added, {}, {}, nullptr, false, 0, 0, KnowledgeIndexJob::Phase::Files});
    endInsertRows();
    watchRows();
    emit basesChanged();
    reindex(added->name);
    return {};
}

QString KnowledgeBasesModel::remove(const QString &name)
{
    const int row = rowOf(name);
    if (row < 0)
        return tr("There is no knowledge base named '%1'.").arg(name);
    KnowledgeIndexJob *job = m_rows.at(row).job;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    QString error;
    if (job) {
        // The base is deleted once the run has let go of its index (at the next file).
        job->disconnect(this);
        m_removing.insert(job, name);
        connect(job, &KnowledgeIndexJob::finished, this, [this, job] { finishRemoval(job); });
        job->cancel();
    } else {
        error = m_library.remove(name);
    }
    watchRows();
    emit basesChanged();
    return error;
}

void KnowledgeBasesModel::reindex(const QString &name)
{
    const int at = rowOf(name);
    if (at < 0)
        return;
    Row &row = m_rows[at];
    if (row.job || row.awaitingKey) {
        row.again = true;
        return;
    }
    // The key may come from a keychain, which answers later: the run counts as started meanwhile.
    const int request = ++m_keyRequests;
    row.awaitingKey = true;
    row.keyRequest = request;
    m_keys.read(
        row.base, this,
        [this, name, request](const std::optional<EmbeddingsEndpoint> &embedding, const QString &problem) {
            startRun(name, request, embedding, problem);
        });
    if (const int now = rowOf(name); now >= 0 && m_rows.at(now).awaitingKey)
        changed(name, {IndexingRole});
}

void KnowledgeBasesModel::startRun(const QString &name, int keyRequest,
                                   const std::optional<EmbeddingsEndpoint> &embedding,
                                   const QString &keyProblem)
{
    const int at = rowOf(name);
    // A base removed (or removed and added again) while its key was read has no run to start.
    if (at < 0 || !m_rows.at(at).awaitingKey || m_rows.at(at).keyRequest != keyRequest)
        return;
    Row &row = m_rows[at];
    row.awaitingKey = false;
    row.problems.clear();
    if (!keyProblem.isEmpty())
        row.problems.append(tr("%1; the passages stay searchable by their words.").arg(keyProblem));
    row.job = new KnowledgeIndexJob(row.base, m_library.databasePath(name), embedding, this);
    row.done = 0;
    row.total = 0;
    row.phase = KnowledgeIndexJob::Phase::Files;
    connect(row.job, &KnowledgeIndexJob::progress, this,
            [this, name](KnowledgeIndexJob::Phase phase, int done, int total) {
                onProgress(name, phase, done, total);
            });
    connect(row.job, &KnowledgeIndexJob::finished, this,
            [this, name](const KnowledgeIndexOutcome &outcome) { onFinished(name, outcome); });
    row.job->start();
    changed(name, {IndexingRole, ProgressDoneRole, ProgressTotalRole, ProgressPhaseRole, ProblemsRole});
}

void KnowledgeBasesModel::cancel(const QString &name)
{
    const int at = rowOf(name);
    if (at < 0)
        return;
    Row &row = m_rows[at];
    row.again = false;
    if (row.awaitingKey) { // nothing was read or written yet
        row.awaitingKey = false;
        changed(name, {IndexingRole});
    } else if (row.job) {
        row.job->cancel();
    }
}

void KnowledgeBasesModel::onProgress(const QString &name, KnowledgeIndexJob::Phase phase, int done, int total)
{
    const int at = rowOf(name);
    if (at < 0)
        return;
    Row &row = m_rows[at];
    row.phase = phase;
    row.done = done;
    row.total = total;
    changed(name, {ProgressDoneRole, ProgressTotalRole, ProgressPhaseRole});
}

QStringList KnowledgeBasesModel::problemsOf(const KnowledgeIndexOutcome &outcome)
{
    QStringList problems = outcome.report.errors;
    if (!outcome.embeddingError.isEmpty())
        problems.append(outcome.embeddingError);
    return problems;
}

void KnowledgeBasesModel::onFinished(const QString &name, const KnowledgeIndexOutcome &outcome)
{
    const int at = rowOf(name);
    if (at < 0)
        return;
    Row &row = m_rows[at];
    row.job->deleteLater();
    row.job = nullptr;
    row.problems.append(problemsOf(outcome));
    const bool again = row.again && !outcome.cancelled;
    row.again = false;
    changed(name, {IndexingRole, ProblemsRole});
    for (const QString &problem : problemsOf(outcome))
        emit message(tr("Knowledge base '%1': %2").arg(name, problem));
    m_watcher.rewatch(name);
    loadStatus(name);
    emit indexingFinished(name, outcome);
    if (again)
        reindex(name);
}

void KnowledgeBasesModel::onPathMissing(const QString &name, const QString &path)
{
    const int at = rowOf(name);
    if (at < 0)
        return;
    const QString problem = tr("'%1' does not exist (any more); what was indexed from it is kept.").arg(path);
    if (m_rows.at(at).problems.contains(problem))
        return;
    m_rows[at].problems.append(problem);
    changed(name, {ProblemsRole});
    emit message(tr("Knowledge base '%1': %2").arg(name, problem));
}

void KnowledgeBasesModel::loadStatus(const QString &name)
{
    auto *watcher = new QFutureWatcher<std::pair<KnowledgeIndexStatus, QString>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, name] {
        watcher->deleteLater();
        const auto [status, error] = watcher->result();
        const int at = rowOf(name);
        if (at < 0)
            return;
        m_rows[at].status = status;
        if (!error.isEmpty() && !m_rows.at(at).problems.contains(error))
            m_rows[at].problems.append(error);
        changed(name);
    });
    watcher->setFuture(QtConcurrent::run(readStatus, m_library.databasePath(name)));
}

void KnowledgeBasesModel::changed(const QString &name, const QList<int> &roles)
{
    const int at = rowOf(name);
    if (at >= 0)
        emit dataChanged(index(at), index(at), roles);
}

} // namespace Loopscope
