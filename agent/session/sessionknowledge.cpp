#include "agent/session/sessionknowledge.h"

#include "agent/session/chatsession.h"
#include "agent/session/knowledgeattachment.h"
#include "agent/session/sessionsetup.h"

#include <memory>

namespace Loopscope {

SessionKnowledge::SessionKnowledge(ChatSession *session, QString directory, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_directory(std::move(directory))
{
    connect(m_session, &ChatSession::restored, this, &SessionKnowledge::onRestored);
}

QStringList SessionKnowledge::chosen() const
{
    QStringList names;
    for (const AttachedKnowledgeBase &base : m_session->setup().knowledge)
        names.append(base.name);
    return names;
}

void SessionKnowledge::choose(const QStringList &names)
{
    const KnowledgeLibrary library(m_directory);
    QStringList unique;
    for (const QString &name : names) {
        if (!unique.contains(name))
            unique.append(name);
    }
    // Each base's slot, in the order chosen, filled as its key is read.
    struct Choice
    {
        QList<std::optional<AttachedKnowledgeBase>> bases;
        int awaited = 1; // one more until every read was asked for
    };
    const auto choice = std::make_shared<Choice>();
    choice->bases.resize(unique.size());
    const int request = ++m_choice;
    m_awaited = unique;
    const auto settle = [this, choice, request] {
        if (request != m_choice || --choice->awaited > 0)
            return;
        QList<AttachedKnowledgeBase> attached;
        for (const std::optional<AttachedKnowledgeBase> &base : std::as_const(choice->bases)) {
            if (base)
                attached.append(*base);
        }
        m_awaited.reset();
        apply(attached);
    };
    for (qsizetype i = 0; i < unique.size(); ++i) {
        const QString &name = unique.at(i);
        const std::optional<KnowledgeBaseDefinition> base = library.base(name);
        if (!base) {
            emit problem(tr("The knowledge base '%1' is not attached: %2.")
                             .arg(name, tr("there is no knowledge base named \"%1\"").arg(name)));
            continue;
        }
        ++choice->awaited;
        m_keys.read(*base, this,
                    [this, choice, i, name, request, settle, path = library.databasePath(name)](
                        const std::optional<EmbeddingsEndpoint> &embedding, const QString &keyProblem) {
                        if (request != m_choice)
                            return;
                        if (keyProblem.isEmpty())
                            choice->bases[i]
                                = AttachedKnowledgeBase{name, path, embedding.value_or(EmbeddingsEndpoint{})};
                        else
                            emit problem(
                                tr("The knowledge base '%1' is not attached: %2.").arg(name, keyProblem));
                        settle();
                    });
    }
    settle();
}

void SessionKnowledge::apply(const QList<AttachedKnowledgeBase> &attached)
{
    SessionSetup setup = m_session->setup();
    if (setup.knowledge == attached)
        return;
    setup.knowledge = attached;
    m_session->apply(setup);
    emit chosenChanged(chosen());
}

void SessionKnowledge::setAttached(const QString &name, bool attached)
{
    // A choice whose keys are still being read is the one to change.
    QStringList names = m_awaited.value_or(chosen());
    names.removeAll(name);
    if (attached)
        names.append(name);
    choose(names);
}

void SessionKnowledge::onRestored()
{
    // The reopened session's own bases, not the ones the previous conversation had.
    choose(m_session->savedKnowledge());
}

} // namespace Loopscope
