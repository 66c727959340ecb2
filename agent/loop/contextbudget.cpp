#include "agent/loop/contextbudget.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// What a message costs beyond its text: its role and the protocol's framing (about four tokens).
constexpr qint64 MessageOverhead = 16;
// An image is billed by its pixels, not its bytes; about 1,500 tokens covers a picture scaled to
// the providers' usual limits (OpenAI's high-detail 1,024 px tiles, Anthropic's 1,568 px edge).
constexpr qint64 ImageCharacters = 6000;
// Well below the threshold, so that the next requests, which add to it, do not compact again.
constexpr int TargetShareOfThreshold = 75;
// A summary of notes, not an essay: the prompt asks for at most 300 words.
constexpr int SummaryOutputTokens = 1024;

} // namespace

// ---------------------------------------------------------------------------
// TokenEstimator

qint64 TokenEstimator::characters(const Message &message)
{
    qint64 count = MessageOverhead + message.text.size();
    for (const ToolCall &call : message.toolCalls)
        count += MessageOverhead + call.id.size() + call.name.size() + call.arguments.size();
    count += message.toolCallId.size() + message.toolName.size();
    for (const Attachment &attachment : message.attachments)
        count += characters(attachment);
    return count;
}

qint64 TokenEstimator::characters(const Attachment &attachment)
{
    return attachment.name.size() + (attachment.isImage() ? ImageCharacters : attachment.text.size());
}

qint64 TokenEstimator::characters(const QList<ToolSchema> &tools)
{
    qint64 count = 0;
    for (const ToolSchema &tool : tools) {
        count += MessageOverhead + tool.name.size() + tool.description.size()
                 + QJsonDocument(tool.parameters).toJson(QJsonDocument::Compact).size();
    }
    return count;
}

qint64 TokenEstimator::characters(const ModelRequest &request)
{
    qint64 count = characters(request.tools);
    for (const Message &message : request.messages)
        count += characters(message);
    return count;
}

void TokenEstimator::calibrate(qint64 characters, qint64 reportedTokens)
{
    if (characters <= 0 || reportedTokens <= 0)
        return;
    // Bounded: a provider that reports nonsense must not make every request look empty or huge.
    m_charactersPerToken = std::clamp(double(characters) / double(reportedTokens), 1.0, 8.0);
}

qint64 TokenEstimator::tokensOf(qint64 characters) const
{
    return qint64(std::ceil(double(characters) / m_charactersPerToken));
}

// ---------------------------------------------------------------------------
// Compaction

QList<Message> Compaction::apply(const QList<Message> &messages) const
{
    qsizetype keepFrom = 0;
    if (droppedTurns > 0) {
        int users = 0;
        qsizetype lastUser = -1;
        keepFrom = -1;
        for (qsizetype i = 0; i < messages.size(); ++i) {
            if (messages.at(i).role != Message::Role::User)
                continue;
            lastUser = i;
            if (users++ == droppedTurns) {
                keepFrom = i;
                break;
            }
        }
        // Never the question being answered: a conversation shorter than the count keeps its last turn.
        if (keepFrom < 0)
            keepFrom = std::max<qsizetype>(lastUser, 0);
    }
    QList<Message> view;
    view.reserve(messages.size() - keepFrom + 1);
    if (keepFrom > 0 && messages.constFirst().role == Message::Role::System)
        view.append(messages.constFirst());
    for (qsizetype i = keepFrom; i < messages.size(); ++i) {
        const Message &message = messages.at(i);
        const auto stub = message.role == Message::Role::Tool ? trimmedResults.constFind(message.toolCallId)
                                                              : trimmedResults.constEnd();
        if (stub == trimmedResults.constEnd()) {
            view.append(message);
        } else {
            Message trimmed = message;
            trimmed.text = *stub;
            view.append(trimmed);
        }
    }
    // Before the instructions and the notes the loop adds to them: the summary tells what happened
    // first, and a replay that starts from this request finds the instructions followed by the notes.
    if (!summary.isEmpty()) {
        const QString note = summaryNote(summary, summarisedTurns);
        if (!view.isEmpty() && view.constFirst().role == Message::Role::System)
            view.first().text = note + u"\n\n"_s + view.constFirst().text;
        else
            view.prepend(Message::system(note));
    }
    return view;
}

QString Compaction::summaryNote(const QString &summary, int turns)
{
    //: The system message's note that carries a compaction's summary. %n: the turns it covers.
    return QCoreApplication::translate(
               "Loopscope::ContextFitter",
               "Earlier in this conversation (%n turn(s), summarised to fit the context "
               "window):\n%1",
               nullptr, turns)
        .arg(summary);
}

// ---------------------------------------------------------------------------
// ContextFitter

ContextFitter::ContextFitter(const TokenEstimator &estimator, const AgentConfig &config)
    : m_estimator(estimator)
    , m_config(config)
{}

QString ContextFitter::stubFor(const Message &result, qint64 tokensSaved)
{
    return tr("[This result of %1 (call %2) was removed to fit the context window: about %3 tokens. "
              "Call the tool again if you need it.]")
        .arg(result.toolName.isEmpty() ? tr("a tool") : result.toolName, result.toolCallId,
             QLocale().toString(tokensSaved));
}

ContextFitter::Result ContextFitter::fit(ModelRequest &request, Compaction &compaction,
                                         Summaries summaries) const
{
    Result result;
    if (!request.options.contextWindow || *request.options.contextWindow <= 0)
        return result;
    result.window = *request.options.contextWindow;
    const QList<Message> built = request.messages;
    if (!compaction.isEmpty())
        request.messages = compaction.apply(built);
    qint64 tokens = m_estimator.tokens(request);
    result.tokensBefore = tokens;

    const qint64 threshold = result.window * std::clamp(m_config.compactAtPercent, 1, 100) / 100;
    const CompactionStrategy strategy = m_config.compaction;
    if (tokens > threshold && strategy != CompactionStrategy::Off) {
        const qint64 target = threshold * TargetShareOfThreshold / 100;
        Compaction grown = compaction;
        QStringList used;
        const QList<Message> view = request.messages;
        if ((strategy == CompactionStrategy::Auto || strategy == CompactionStrategy::TrimToolResults)
            && trimToolResults(view, target, tokens, grown, result))
            used.append(compactionStrategyName(CompactionStrategy::TrimToolResults));
        if (tokens > target && summaries == Summaries::MayAsk
            && (strategy == CompactionStrategy::Auto || strategy == CompactionStrategy::Summarise)) {
            if (std::optional<SummaryPlan> plan = planSummary(grown.apply(built), grown)) {
                // Nothing changes until the summary is written: the caller fits the request again.
                request.messages = built;
                result.tokensAfter = result.tokensBefore;
                result.replaced.clear();
                result.summaryPlan = std::move(plan);
                return result;
            }
        }
        if (tokens > target
            && (strategy == CompactionStrategy::Auto || strategy == CompactionStrategy::DropOldest)
            && dropOldestTurns(grown.apply(built), target, tokens, grown, result))
            used.append(compactionStrategyName(CompactionStrategy::DropOldest));
        if (grown != compaction) {
            compaction = grown;
            request.messages = compaction.apply(built);
            tokens = m_estimator.tokens(request);
            result.compacted = true;
            result.strategy = used.join(u'+');
        }
    }
    result.tokensAfter = tokens;
    // What the model may answer comes out of the same window.
    result.fits = tokens + request.options.maxOutputTokens.value_or(0) <= result.window;
    return result;
}

// The oldest results first, but never those the model has not read yet: they answer its last calls.
bool ContextFitter::trimToolResults(const QList<Message> &messages, qint64 target, qint64 &tokens,
                                    Compaction &compaction, Result &result) const
{
    qsizetype unread = messages.size();
    while (unread > 0 && messages.at(unread - 1).role == Message::Role::Tool)
        --unread;
    bool trimmed = false;
    for (qsizetype i = 0; i < unread && tokens > target; ++i) {
        const Message &message = messages.at(i);
        if (message.role != Message::Role::Tool || compaction.trimmedResults.contains(message.toolCallId))
            continue;
        const qint64 before = m_estimator.tokens(message);
        Message stub = message;
        stub.text = stubFor(message, before);
        const qint64 saved = before - m_estimator.tokens(stub);
        if (saved <= 0)
            continue;
        compaction.trimmedResults.insert(message.toolCallId, stub.text);
        tokens -= saved;
        trimmed = true;
        result.replaced.append({int(i), roleName(message.role), message.toolName, message.toolCallId, before,
                                stub.text, QString()});
    }
    return trimmed;
}

// The turns before the last compactionKeepTurns, as the request carries them now.
std::optional<ContextFitter::SummaryPlan> ContextFitter::planSummary(const QList<Message> &messages,
                                                                     const Compaction &compaction) const
{
    QList<qsizetype> users;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        if (messages.at(i).role == Message::Role::User)
            users.append(i);
    }
    const qsizetype summarised = users.size() - std::max(1, m_config.compactionKeepTurns);
    if (summarised <= 0)
        return std::nullopt;
    SummaryPlan plan;
    plan.turns = compaction.droppedTurns + int(summarised);
    plan.previousSummary = compaction.summary;
    for (qsizetype i = users.constFirst(); i < users.at(summarised); ++i) {
        const Message &message = messages.at(i);
        const qint64 cost = m_estimator.tokens(message);
        plan.tokens += cost;
        plan.messages.append(message);
        plan.replaced.append({int(i), roleName(message.role), message.toolName, message.toolCallId, cost,
                              QString(), message.text.simplified().left(120), true});
    }
    return plan;
}

ModelRequest ContextFitter::summaryRequest(const SummaryPlan &plan, const ModelOptions &options) const
{
    // At most half the window for what is summarised, so the summary request fits where the
    // conversation did not; each message at most a few thousand characters.
    constexpr qsizetype MessageCharacters = 4000;
    const qint64 windowTokens = options.contextWindow.value_or(0);
    const qint64 budget = windowTokens > 0
                              ? qint64(double(windowTokens / 2) * m_estimator.charactersPerToken())
                              : std::numeric_limits<qint64>::max();
    QString transcript;
    if (!plan.previousSummary.isEmpty())
        transcript += tr("What the conversation said before these messages, summarised:") + u'\n'
                      + plan.previousSummary + u"\n\n"_s;
    transcript += tr("The messages to summarise:") + u'\n';
    for (const Message &message : plan.messages) {
        QString entry;
        switch (message.role) {
        case Message::Role::User: entry = tr("User: %1").arg(message.text); break;
        case Message::Role::Assistant: entry = tr("Assistant: %1").arg(message.text); break;
        case Message::Role::Tool: entry = tr("Result of %1: %2").arg(message.toolName, message.text); break;
        case Message::Role::System: continue;
        }
        for (const ToolCall &call : message.toolCalls)
            entry += u'\n' + tr("Assistant called %1 with %2").arg(call.name, call.arguments);
        for (const Attachment &attachment : message.attachments)
            entry += u'\n' + tr("[attached: %1]").arg(attachment.name);
        if (entry.size() > MessageCharacters)
            entry = entry.left(MessageCharacters) + u" […]"_s;
        if (transcript.size() + entry.size() > budget) {
            transcript += tr("[The later messages did not fit in this request and are left out.]");
            break;
        }
        transcript += entry + u"\n\n"_s;
    }
    ModelRequest request;
    request.options = options;
    if (!m_config.compactionModel.isEmpty())
        request.options.model = m_config.compactionModel;
    request.options.maxOutputTokens = SummaryOutputTokens;
    request.messages = {Message::system(m_config.compactionPrompt), Message::user(transcript.trimmed())};
    return request;
}

// Whole turns, oldest first, so that no tool result is left without its call; never the last turn.
bool ContextFitter::dropOldestTurns(const QList<Message> &messages, qint64 target, qint64 &tokens,
                                    Compaction &compaction, Result &result) const
{
    QList<qsizetype> users;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        if (messages.at(i).role == Message::Role::User)
            users.append(i);
    }
    bool dropped = false;
    for (qsizetype turn = 0; turn + 1 < users.size() && tokens > target; ++turn) {
        for (qsizetype i = users.at(turn); i < users.at(turn + 1); ++i) {
            const Message &message = messages.at(i);
            const qint64 cost = m_estimator.tokens(message);
            tokens -= cost;
            result.replaced.append({int(i), roleName(message.role), message.toolName, message.toolCallId,
                                    cost, QString(), message.text.simplified().left(120)});
        }
        ++compaction.droppedTurns;
        dropped = true;
    }
    return dropped;
}

QString ContextFitter::refusal(const Result &result, CompactionStrategy strategy)
{
    const QLocale locale;
    //: %1: estimated tokens of the request, %2: the model's context window in tokens
    QString text = tr("This request needs about %1 tokens, and the model's context window holds %2.")
                       .arg(locale.toString(result.tokensAfter), locale.toString(result.window));
    if (strategy == CompactionStrategy::Off)
        text += u' '
                + tr("Compaction is off, so nothing was left out: turn it on (--compact auto, or the loop "
                     "settings) to trim old tool results, summarise older turns and drop the oldest ones.");
    else
        text += u' '
                + tr("Even after compaction it does not fit: what is left is the question being answered "
                     "and the results the model has not read yet.");
    text += u' '
            + tr("Start a new session or fork from an earlier message, or, if the model takes more, set its "
                 "window (--context-window N, or the provider profile's Context window).");
    return text;
}

QJsonArray ContextFitter::Result::replacedJson() const
{
    QJsonArray array;
    for (const Replacement &replacement : replaced) {
        QJsonObject entry{{u"messageIndex"_s, replacement.messageIndex},
                          {u"role"_s, replacement.role},
                          {u"tokens"_s, replacement.tokens}};
        if (!replacement.toolCallId.isEmpty()) {
            entry.insert(u"toolCallId"_s, replacement.toolCallId);
            entry.insert(u"toolName"_s, replacement.toolName);
        }
        if (replacement.summarised) {
            entry.insert(u"summarised"_s, true);
            entry.insert(u"text"_s, replacement.preview);
        } else if (replacement.replacement.isEmpty()) {
            entry.insert(u"dropped"_s, true);
            entry.insert(u"text"_s, replacement.preview);
        } else {
            entry.insert(u"replacement"_s, replacement.replacement);
        }
        array.append(entry);
    }
    return array;
}

} // namespace Loopscope
