#pragma once

#include "agent/loop/agentconfig.h"
#include "agent/model/modelrequest.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    A request's size in tokens, estimated before it goes: the characters of
    everything sent — every message's text, tool calls and results,
    attachments, the tool schemas — over a number of characters per token
    that starts at four and follows what the provider reports it counted.
*/
class TokenEstimator final
{
public:
    qint64 tokens(const ModelRequest &request) const { return tokensOf(characters(request)); }
    qint64 tokens(const Message &message) const { return tokensOf(characters(message)); }
    // The provider counted \a reportedTokens for a request of \a characters: later estimates use
    // that ratio.
    void calibrate(qint64 characters, qint64 reportedTokens);
    double charactersPerToken() const { return m_charactersPerToken; }

    static qint64 characters(const ModelRequest &request);
    static qint64 characters(const Message &message);
    // An attachment as a request carries it: its name, and a text file's text or an image's
    // fixed share (about 1,500 tokens at four characters a token).
    static qint64 characters(const Attachment &attachment);
    static qint64 characters(const QList<ToolSchema> &tools);

private:
    qint64 tokensOf(qint64 characters) const;

    double m_charactersPerToken = 4.0;
};

/*!
    What the requests leave out of the history so that they fit the context
    window. It only grows during a conversation and is applied to every request
    after it, so requests change (and a provider's prompt cache starts over)
    only when a compaction runs, not on every request. The history itself is
    never changed: the session keeps every message.
*/
struct Compaction
{
    QHash<QString, QString> trimmedResults; // tool call id -> the stub its result is carried as
    int droppedTurns = 0;                   // the oldest user messages, and all that followed each, left out
    // What a model wrote about the first summarisedTurns of them (<= droppedTurns), carried in the
    // system message instead.
    QString summary;
    int summarisedTurns = 0;

    bool isEmpty() const { return trimmedResults.isEmpty() && droppedTurns == 0 && summary.isEmpty(); }
    bool operator==(const Compaction &) const = default;
    // \a messages as the requests carry them.
    QList<Message> apply(const QList<Message> &messages) const;
    // How the system message carries the summary.
    static QString summaryNote(const QString &summary, int turns);
};

/*!
    Makes a request fit its model's context window: over the threshold it
    trims old tool results, asks for a summary of the older turns and drops the
    oldest turns, as the strategy allows, until the request is well below it,
    and says what it replaced. A request still over the whole window after
    that is refused before it is sent.

    A summary takes a model call, which the fitter does not make: it says
    which turns to summarise (Result::summaryPlan) and changes nothing; the
    caller has them summarised, records the summary in the Compaction and fits
    the request again, not asking for another.
*/
class ContextFitter final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::ContextFitter)

public:
    struct Replacement
    {
        int messageIndex = -1; // in the request as it would have gone without this compaction
        QString role;
        QString toolName;
        QString toolCallId;
        qint64 tokens = 0;   // what the message was estimated at
        QString replacement; // the stub the model reads instead; empty when the message was dropped
        QString preview;     // the start of a dropped or summarised message's text
        bool summarised = false;
    };
    // The oldest turns a model should summarise before the request can fit.
    struct SummaryPlan
    {
        QList<Message> messages; // as the request carries them (stubs for trimmed results)
        int turns = 0;           // Compaction::droppedTurns once they are summarised
        QString previousSummary; // what an earlier summary said of the turns before them
        QList<Replacement> replaced;
        qint64 tokens = 0; // what the messages cost in the request now
    };
    struct Result
    {
        qint64 window = 0;
        qint64 tokensBefore = 0;
        qint64 tokensAfter = 0;
        bool compacted = false; // this request changed what the requests leave out
        QString strategy;       // the strategies that did, e.g. "trim-tool-results+drop-oldest"
        QList<Replacement> replaced;
        bool fits = true;
        std::optional<SummaryPlan> summaryPlan; // set: nothing was changed, summarise these first
        QJsonArray replacedJson() const;
    };
    enum class Summaries { MayAsk, DoNotAsk };

    ContextFitter(const TokenEstimator &estimator, const AgentConfig &config);

    // Fits \a request (built from the whole history) into the window, growing \a compaction when
    // it must; \a request then carries what is sent. Without a known window it is left alone.
    Result fit(ModelRequest &request, Compaction &compaction, Summaries summaries = Summaries::MayAsk) const;
    // The request that has a model summarise \a plan's messages for the conversation's \a options.
    ModelRequest summaryRequest(const SummaryPlan &plan, const ModelOptions &options) const;

    // The stub a trimmed tool result is replaced by.
    static QString stubFor(const Message &result, qint64 tokensSaved);
    // Why a request that does not fit is not sent, and what to do.
    static QString refusal(const Result &result, CompactionStrategy strategy);

private:
    bool trimToolResults(const QList<Message> &messages, qint64 target, qint64 &tokens,
                         Compaction &compaction, Result &result) const;
    std::optional<SummaryPlan> planSummary(const QList<Message> &messages,
                                           const Compaction &compaction) const;
    bool dropOldestTurns(const QList<Message> &messages, qint64 target, qint64 &tokens,
                         Compaction &compaction, Result &result) const;

    const TokenEstimator &m_estimator;
    const AgentConfig &m_config;
};

} // namespace Loopscope
