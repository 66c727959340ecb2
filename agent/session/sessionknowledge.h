#pragma once

#include "agent/knowledge/knowledgelibrary.h"
#include "agent/session/knowledgeattachment.h"

#include <QObject>
#include <QStringList>

#include <optional>

namespace Loopscope {

class ChatSession;

/*!
    Which knowledge bases a session in the window attaches: the user's choice
    (by name) becomes SessionSetup::knowledge, each base with its index and its
    embeddings key, and it is saved with the session (Transcript::knowledge),
    so reopening a session attaches its bases again. A base that is gone, or
    whose key cannot be read, is left out and said, never a silent change.
*/
class SessionKnowledge final : public QObject
{
    Q_OBJECT

public:
    // \a session is not owned; \a directory holds the bases (KnowledgeLibrary).
    SessionKnowledge(ChatSession *session, QString directory = KnowledgeLibrary::defaultDirectory(),
                     QObject *parent = nullptr);

    // Where the bases' embeddings keys are read (the window's profiles and keychain); the
    // environment only until this is called.
    void setKeyReader(const KnowledgeKeyReader &reader) { m_keys = reader; }

    // The bases the session attaches now, by name.
    QStringList chosen() const;
    // Attaches exactly \a names (once their keys are read: later when a keychain is asked, and a
    // newer choice wins); those that cannot be are left out, with a problem() each.
    void choose(const QStringList &names);
    void setAttached(const QString &name, bool attached);

signals:
    void chosenChanged(const QStringList &names);
    void problem(const QString &text);

private:
    void onRestored();

    void apply(const QList<AttachedKnowledgeBase> &attached);

    ChatSession *m_session;
    QString m_directory;
    KnowledgeKeyReader m_keys;
    int m_choice = 0;                     // the newest choose(), whose keys are awaited
    std::optional<QStringList> m_awaited; // its names, until then
};

} // namespace Loopscope
