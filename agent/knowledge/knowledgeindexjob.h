#pragma once

#include "agent/knowledge/embeddingsclient.h"
#include "agent/knowledge/knowledgeindexer.h"
#include "agent/knowledge/knowledgelibrary.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <optional>

namespace Loopscope {

class KnowledgeIndexWorker;

// What one indexing run of a base did: the indexer's report and, for a base with embeddings, the
// passages given a vector and why embedding stopped.
struct KnowledgeIndexOutcome
{
    KnowledgeIndexReport report;
    int embedded = 0;
    QStringList embeddingNotices;
    QString embeddingError; // the base stays searchable by its words
    bool cancelled = false;
};

/*!
    One indexing run of one knowledge base on a thread of its own, so that the
    thread that starts it (the GUI's) never reads a file or writes SQLite:
    KnowledgeIndexer brings the passages up to date, then, for a base with an
    embedding model, KnowledgeEmbedder gives the new passages their vectors on
    the same thread (with its own network access). Both take the index's
    writer lock, so a run of the same base elsewhere (`loopscope knowledge
    index`) makes this one stop with a message instead of writing beside it.
    Cancel stops between files (or between slices of passages): what was
    written is kept and the next run goes on from there. Every outcome is a
    signal; the destructor cancels and waits for the current file.
*/
class KnowledgeIndexJob final : public QObject
{
    Q_OBJECT

public:
    enum class Phase { Files, Passages };
    Q_ENUM(Phase)

    // \a embedding: where the passages' vectors come from, nullopt for a lexical base.
    KnowledgeIndexJob(KnowledgeBaseDefinition base, QString databasePath,
                      std::optional<EmbeddingsEndpoint> embedding, QObject *parent = nullptr);
    ~KnowledgeIndexJob() override;

    QString baseName() const { return m_base.name; }
    void start();
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    // done of total files looked at, then passages embedded.
    void progress(Loopscope::KnowledgeIndexJob::Phase phase, int done, int total);
    void finished(const Loopscope::KnowledgeIndexOutcome &outcome);

private:
    friend class KnowledgeIndexWorker;
    void deliver(const KnowledgeIndexOutcome &outcome);

    KnowledgeBaseDefinition m_base;
    QString m_databasePath;
    std::optional<EmbeddingsEndpoint> m_embedding;
    QThread m_thread;
    KnowledgeIndexWorker *m_worker = nullptr; // lives on m_thread
    std::atomic<bool> m_cancel = false;
    bool m_running = false;
};

} // namespace Loopscope

Q_DECLARE_METATYPE(Loopscope::KnowledgeIndexOutcome)
