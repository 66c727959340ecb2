#pragma once

#include "agent/conversation/message.h"
#include "agent/loop/turnnotices.h"
#include "agent/model/modelcost.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace Loopscope {

struct Transcript;

namespace Internal {

/*! The translation context of the labels in exported documents. */
class ExportText final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::ExportText)
};

/*! A model as a trace's model call recorded it. */
struct ModelAndProvider
{
    QString model;
    QString provider; // providerKindName(), e.g. "openai"; may be empty in old traces
    bool operator==(const ModelAndProvider &) const = default;
};

/*! A tool call together with the message that answered it, when one did. */
struct ToolExchange
{
    ToolCall call;
    const Message *result = nullptr;
};

/*!
    One block of an exported conversation. An assistant message carries its
    calls with their results: a reader wants to see what a tool returned next
    to the call, not three messages later. A result that answers no call of
    the assistant message before it stands alone.
*/
struct ConversationEntry
{
    const Message *message = nullptr;
    QList<ToolExchange> exchanges;
    // What the chat shows after this entry: a turn's retries after its question, how it ended after
    // its last message (TurnNotices, from the trace).
    QList<TurnNotice> notices;
    // On a turn's first assistant message: the models that answered the turn, from its trace.
    QList<ModelAndProvider> answeredBy;
};

// The entries point into messages, which must outlive them.
QList<ConversationEntry> conversationEntries(const QList<Message> &messages);
/*!
    The entries of a transcript's conversation with what its trace recorded:
    each turn's notices (its retries after its question, how it ended after
    its last message), and on each turn's first assistant message the models
    that answered that turn — a session may change model between turns, and
    the session's current model says nothing about the turns before.
*/
QList<ConversationEntry> conversationEntries(const Transcript &transcript);
// "Retry", "Error", …: a notice's label in an exported document.
QString noticeLabel(TurnNotice::Kind kind);

// The models the trace's calls used, each once, in the order first used.
QList<ModelAndProvider> traceModels(const QJsonArray &trace);

// What a document's header says answered the session: each model and provider once, from the trace;
// the session's current model when the trace recorded none.
struct UsedModels
{
    QStringList models;
    QStringList providers; // empty when the trace did not say
};
UsedModels usedModels(const Transcript &transcript);

// Arguments indented when they are JSON; otherwise the model's raw text, and *isJson false.
QString formatArguments(const QString &arguments, bool *isJson);

// "2024-05-01 09:30 UTC"; empty for an invalid time.
QString formatUtc(const QDateTime &time);

// The base URL as it may be shown: never with user info or a key in the query.
QString displayBaseUrl(const QUrl &url);

// What the session's turns used, from the trace JSON; empty when it has no usable turns.
TokenUsage traceUsage(const QJsonArray &trace);

/*! What one turn of the trace used and cost. */
struct TurnCost
{
    int number = 0; // from 1
    QString input;  // the user's message
    TokenUsage usage;
    CostSum cost;
};

/*!
    The session's costs per turn and in total: the costs recorded in the trace,
    and for calls recorded before costs were kept, today's price table's.
*/
struct SessionCosts
{
    QList<TurnCost> turns;
    CostSum total;
    bool hasCalls() const { return total.pricedCalls + total.unpricedCalls > 0; }
};
SessionCosts sessionCosts(const Transcript &transcript);

// The user messages: one per turn that got past the input shields.
int userMessageCount(const QList<Message> &messages);

QString roleLabel(Message::Role role);
QString sessionTitle(const Transcript &transcript);

} // namespace Internal
} // namespace Loopscope
