#include "agent/knowledge/knowledgeindexjob.h"

#include "agent/knowledge/knowledgeembedder.h"

#include <QNetworkAccessManager>
#include <QPointer>

using namespace Qt::StringLiterals;

namespace Loopscope {

// Lives on the job's thread: everything that touches the files, the index or the network happens here.
class KnowledgeIndexWorker final : public QObject
{
public:
    explicit KnowledgeIndexWorker(KnowledgeIndexJob *job)
        : m_job(job)
    {}

    void run()
    {
        const auto onFile = [this](int done, int total, const QString &) {
            post([job = m_job, done, total] {
                emit job->progress(KnowledgeIndexJob::Phase::Files, done, total);
            });
        };
        m_outcome.report
            = KnowledgeIndexer().run(m_job->m_base, m_job->m_databasePath, onFile, &m_job->m_cancel);
        m_outcome.cancelled = m_outcome.report.cancelled || m_job->m_cancel.load();
        if (!m_job->m_embedding || m_outcome.cancelled)
            return finish();
        m_network = new QNetworkAccessManager(this);
        m_embedder = new KnowledgeEmbedder(m_network, *m_job->m_embedding, m_job->m_databasePath, this);
        connect(m_embedder, &KnowledgeEmbedder::notice, this,
                [this](const QString &message) { m_outcome.embeddingNotices.append(message); });
        connect(m_embedder, &KnowledgeEmbedder::progress, this, [this](int done, int total) {
            post([job = m_job, done, total] {
                emit job->progress(KnowledgeIndexJob::Phase::Passages, done, total);
            });
        });
        connect(m_embedder, &KnowledgeEmbedder::finished, this, [this](int embedded) {
            m_outcome.embedded = embedded;
            finish();
        });
        connect(m_embedder, &KnowledgeEmbedder::failed, this, [this](const QString &message) {
            m_outcome.embeddingError = message;
            finish();
        });
        m_embedder->start();
    }

    // On this thread: the embedder stops between slices; what was stored is kept.
    void cancel()
    {
        if (!m_embedder || m_done)
            return;
        m_embedder->cancel();
        m_outcome.cancelled = true;
        finish();
    }

private:
    void post(std::function<void()> call)
    {
        QMetaObject::invokeMethod(m_job, std::move(call), Qt::QueuedConnection);
    }

    void finish()
    {
        if (m_done)
            return;
        m_done = true;
        post([job = m_job, outcome = m_outcome] { job->deliver(outcome); });
    }

    KnowledgeIndexJob *m_job; // outlives this thread: its destructor waits for it
    KnowledgeIndexOutcome m_outcome;
    QNetworkAccessManager *m_network = nullptr;
    KnowledgeEmbedder *m_embedder = nullptr;
    bool m_done = false;
};

KnowledgeIndexJob::KnowledgeIndexJob(KnowledgeBaseDefinition base, QString databasePath,
                                     std::optional<EmbeddingsEndpoint> embedding, QObject *parent)
    : QObject(parent)
    , m_base(std::move(base))
    , m_databasePath(std::move(databasePath))
    , m_embedding(std::move(embedding))
{
    qRegisterMetaType<KnowledgeIndexOutcome>();
    m_thread.setObjectName(u"knowledge index"_s);
}

KnowledgeIndexJob::~KnowledgeIndexJob()
{
    cancel();
    m_thread.quit();
    m_thread.wait(); // at most the file being read, or the embeddings request being cancelled
}

void KnowledgeIndexJob::start()
{
    if (m_running || m_worker)
        return; // one run per job
    m_running = true;
    m_worker = new KnowledgeIndexWorker(this);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->run(); }, Qt::QueuedConnection);
}

void KnowledgeIndexJob::cancel()
{
    if (!m_running)
        return;
    m_cancel = true;
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker] { worker->cancel(); }, Qt::QueuedConnection);
}

void KnowledgeIndexJob::deliver(const KnowledgeIndexOutcome &outcome)
{
    m_running = false;
    m_thread.quit();
    emit finished(outcome);
}

} // namespace Loopscope
