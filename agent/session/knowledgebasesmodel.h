#pragma once

#include "agent/knowledge/knowledgefolderwatcher.h"
#include "agent/knowledge/knowledgeindex.h"
#include "agent/knowledge/knowledgeindexjob.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/session/knowledgeattachment.h"

#include <QAbstractListModel>
#include <QList>

namespace Loopscope {

/*!
    The knowledge bases as the window shows them: one row per base with its
    index's status (files, passages, size on disk, last indexing, embedding
    model, skipped files and problems) and the progress of a run. It is also
    what keeps them current while the app runs: each run is a
    KnowledgeIndexJob on a thread of its own, a status is read with
    QtConcurrent, and a KnowledgeFolderWatcher re-indexes a base whose folders
    changed, so the GUI thread never reads a document or waits on SQLite. A
    base has one run at a time; asking again while it runs queues one more.
*/
class KnowledgeBasesModel final : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role {
        FilesRole = Qt::UserRole + 1,
        ChunksRole,
        BytesRole,
        LastIndexedRole,    // QDateTime, invalid before the first complete run
        EmbeddingModelRole, // empty: searched by its words only
        EmbeddedChunksRole,
        PathsRole,
        SkippedRole,  // "path: reason" for each file left out
        ProblemsRole, // what the last run said went wrong, a folder that is gone
        IndexingRole,
        ProgressDoneRole,
        ProgressTotalRole,
        ProgressPhaseRole, // KnowledgeIndexJob::Phase as an int
    };

    explicit KnowledgeBasesModel(QString directory = KnowledgeLibrary::defaultDirectory(),
                                 QObject *parent = nullptr);
    ~KnowledgeBasesModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Where a run reads its base's embeddings key (the window's profiles and keychain); the
    // environment only until this is called.
    void setKeyReader(const KnowledgeKeyReader &reader) { m_keys = reader; }

    const KnowledgeLibrary &library() const { return m_library; }
    KnowledgeFolderWatcher *watcher() { return &m_watcher; }
    int rowOf(const QString &name) const;
    QStringList names() const;
    bool isIndexing(const QString &name) const;

    // Adds the base and indexes it at once; an empty string, or why not (nothing added then).
    QString add(const KnowledgeBaseDefinition &definition);
    // Forgets the base and deletes its index (the documents stay), once a run of it has stopped.
    QString remove(const QString &name);
    // An incremental run of the base in the background.
    void reindex(const QString &name);
    void cancel(const QString &name);

signals:
    void basesChanged();
    void indexingFinished(const QString &name, const Loopscope::KnowledgeIndexOutcome &outcome);
    // A sentence for the status bar: a run that failed, a folder that is gone.
    void message(const QString &text);

private:
    struct Row
    {
        KnowledgeBaseDefinition base;
        KnowledgeIndexStatus status;
        QStringList problems;
        KnowledgeIndexJob *job = nullptr; // child of this while it runs
        bool again = false;               // asked again while running
        int done = 0;
        int total = 0;
        KnowledgeIndexJob::Phase phase = KnowledgeIndexJob::Phase::Files;
        bool awaitingKey = false; // the run starts once its embeddings key is read
        int keyRequest = 0;       // which reading of the key is awaited
    };

    void reload();
    // The watcher watches the bases listed, not one still being removed.
    void watchRows();
    // Deletes the index and definition of a base removed while it was indexed, once its run let go.
    void finishRemoval(KnowledgeIndexJob *job);
    void loadStatus(const QString &name);
    void changed(const QString &name, const QList<int> &roles = {});
    void startRun(const QString &name, int keyRequest, const std::optional<EmbeddingsEndpoint> &embedding,
                  const QString &keyProblem);
    void onProgress(const QString &name, KnowledgeIndexJob::Phase phase, int done, int total);
    void onFinished(const QString &name, const KnowledgeIndexOutcome &outcome);
    void onPathMissing(const QString &name, const QString &path);
    static QStringList problemsOf(const KnowledgeIndexOutcome &outcome);

    KnowledgeLibrary m_library;
    QList<Row> m_rows;                              // by name, as the library sorts them
    QHash<KnowledgeIndexJob *, QString> m_removing; // runs of removed bases, until they stop
    KnowledgeFolderWatcher m_watcher;
    KnowledgeKeyReader m_keys;
    int m_keyRequests = 0;
};

} // namespace Loopscope
