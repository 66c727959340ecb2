#include "agent/session/sessionknowledge.h"

#include "agent/session/chatsession.h"
#include "agent/session/knowledgeattachment.h"
#include "agent/session/sessionsetup.h"

#include <algorithm>

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
    QList<AttachedKnowledgeBase> attached;
    for (const QString &name : names) {
        if (std::any_of(attached.cbegin(), attached.cend(),
                        [&](const AttachedKnowledgeBase &base) { return base.name == name; }))
            continue;
        QString error;
        if (const std::optional<AttachedKnowledgeBase> base
            = KnowledgeAttachment::attach(library, name, &error))
            attached.append(*base);
        else
            emit problem(tr("The knowledge base '%1' is not attached: %2.").arg(name, error));
    }
    SessionSetup setup = m_session->setup();
    if (setup.knowledge == attached)
        return;
    setup.knowledge = attached;
    m_session->apply(setup);
    emit chosenChanged(chosen());
}

void SessionKnowledge::setAttached(const QString &name, bool attached)
{
    QStringList names = chosen();
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
