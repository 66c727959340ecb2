#include "agent/providers/connectiontester.h"

#include "agent/providers/modellister.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Ollama calls a model without a tag by its ":latest" one; Gemini's list names
// "models/x" where users may have typed either.
bool offers(const QStringList &models, const QString &model)
{
    QString wanted = model.trimmed();
    if (wanted.startsWith(u"models/"))
        wanted.remove(0, 7);
    return models.contains(wanted) || (!wanted.contains(u':') && models.contains(wanted + u":latest"_s));
}

} // namespace

ConnectionTester::ConnectionTester(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_lister(new ModelLister(network, this))
{
    connect(m_lister, &ModelLister::listed, this, &ConnectionTester::report);
    connect(m_lister, &ModelLister::failed, this, &ConnectionTester::failed);
}

ConnectionTester::~ConnectionTester() = default;

void ConnectionTester::test(ProviderKind kind, const QUrl &baseUrl, const QString &model,
                            const QString &apiKey, int timeoutMs)
{
    m_kind = kind;
    m_model = model;
    m_lister->list(kind, baseUrl, apiKey, timeoutMs);
}

void ConnectionTester::cancel()
{
    m_lister->cancel();
}

bool ConnectionTester::isRunning() const
{
    return m_lister->isRunning();
}

void ConnectionTester::report(const QStringList &models)
{
    if (models.isEmpty()) {
        emit succeeded(m_kind == ProviderKind::Ollama
                           ? tr("Connected, but no model is installed: pull one with “ollama pull”.")
                           : tr("Connected, but the server lists no models."));
    } else if (m_model.trimmed().isEmpty()) {
        emit succeeded(tr("Connected: %n model(s) on offer.", nullptr, int(models.size())));
    } else if (offers(models, m_model)) {
        emit succeeded(tr("Connected: %1 is available.").arg(m_model.trimmed()));
    } else {
        emit succeeded(tr("Connected, but “%1” is not among the %n model(s) the server lists: check the "
                          "model name.",
                          nullptr, int(models.size()))
                           .arg(m_model.trimmed()));
    }
}

} // namespace Loopscope
