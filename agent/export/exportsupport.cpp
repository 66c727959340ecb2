#include "agent/export/exportsupport.h"

#include "agent/config/profilepricing.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracecost.h"
#include "agent/trace/turnnodefinder.h"
#include "agent/transcript/transcript.h"
#include "agent/wire/secretredactor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope::Internal {

QList<ConversationEntry> conversationEntries(const QList<Message> &messages)
{
    QList<ConversationEntry> entries;
    qsizetype callsEntry = -1; // the assistant entry whose calls the following results may answer
    for (const Message &message : messages) {
        if (message.role == Message::Role::Tool && callsEntry >= 0) {
            QList<ToolExchange> &exchanges = entries[callsEntry].exchanges;
            const auto answered
                = std::find_if(exchanges.begin(), exchanges.end(), [&message](const ToolExchange &e) {
                      return !e.result && e.call.id == message.toolCallId;
                  });
            if (answered != exchanges.end()) {
                answered->result = &message;
                continue;
            }
        }
        if (message.role != Message::Role::Tool)
            callsEntry = -1;
        ConversationEntry entry;
        entry.message = &message;
        if (message.role == Message::Role::Assistant) {
            for (const ToolCall &call : message.toolCalls)
                entry.exchanges.append({call, nullptr});
            if (!entry.exchanges.isEmpty())
                callsEntry = entries.size();
        }
        entries.append(entry);
    }
    return entries;
}

namespace {

// The models of the model calls in the subtree of \a id, each once, in the order first used.
void collectModels(const TraceForest &forest, int id, QList<ModelAndProvider> &models)
{
    const TraceNode &node = forest.nodes[size_t(id)];
    if (const auto *call = std::get_if<ModelCallData>(&node.payload); call && !call->model.isEmpty()) {
        const ModelAndProvider model{call->model, call->provider};
        if (!models.contains(model))
            models.append(model);
    }
    for (int child : node.children)
        collectModels(forest, child, models);
}

// Each turn's notices, placed as the chat placed them.
void attachNotices(QList<ConversationEntry> &entries, const QList<Message> &messages, const Trace &trace)
{

    // Each turn's notices, by the message they follow: the question, the turn's last message.
    QMap<qsizetype, QList<TurnNotice>> after;
    TurnNodeFinder finder(trace);
    for (qsizetype question = 0; question < messages.size(); ++question) {
        if (messages.at(question).role != Message::Role::User)
            continue;
        qsizetype last = question + 1;
        while (last < messages.size() && messages.at(last).role != Message::Role::User)
            ++last;
        --last;
        const int turnNode = finder.nextTurn(TurnNodeFinder::messagesBefore(messages, question));
        for (const TurnNotice &notice : TurnNotices::ofTurn(trace, turnNode))
            after[notice.precedesAnswer() && last > question ? question : last].append(notice);
    }
    // An entry ends at its message or at the last result of its calls.
    for (ConversationEntry &entry : entries) {
        qsizetype end = entry.message - messages.constData();
        for (const ToolExchange &exchange : std::as_const(entry.exchanges)) {
            if (exchange.result)
                end = std::max(end, qsizetype(exchange.result - messages.constData()));
        }
        for (auto it = after.begin(); it != after.end();) {
            if (it.key() <= end) {
                entry.notices += it.value();
                it = after.erase(it);
            } else {
                ++it;
            }
        }
    }
    if (!after.isEmpty()) {
        for (const QList<TurnNotice> &rest : std::as_const(after))
            entries.last().notices += rest;
    }
}

// Each turn's first answer names the models the turn's model calls used.
void attachModels(QList<ConversationEntry> &entries, const TraceForest &forest)
{
    // A turn's user message holds the turn's input; a turn an input shield stopped has none.
    qsizetype nextRoot = 0;
    QList<ModelAndProvider> turnModels;
    bool waitingForAnswer = false;
    for (ConversationEntry &entry : entries) {
        const Message &message = *entry.message;
        if (message.role == Message::Role::User) {
            turnModels.clear();
            waitingForAnswer = false;
            for (qsizetype i = nextRoot; i < forest.roots.size(); ++i) {
                const int root = forest.roots.at(i);
                const auto *turn = std::get_if<TurnData>(&forest.nodes[size_t(root)].payload);
                if (turn && turn->input == message.text) {
                    collectModels(forest, root, turnModels);
                    nextRoot = i + 1;
                    waitingForAnswer = true;
                    break;
                }
            }
        } else if (message.role == Message::Role::Assistant && waitingForAnswer) {
            entry.answeredBy = turnModels;
            waitingForAnswer = false;
        }
    }
}

} // namespace

QList<ConversationEntry> conversationEntries(const Transcript &transcript)
{
    QList<ConversationEntry> entries = conversationEntries(transcript.messages);
    if (entries.isEmpty())
        return entries;
    Trace trace;
    if (trace.fromJson(transcript.trace))
        attachNotices(entries, transcript.messages, trace);
    if (const std::optional<TraceForest> forest = Trace::readJson(transcript.trace))
        attachModels(entries, *forest);
    return entries;
}

QString noticeLabel(TurnNotice::Kind kind)
{
    switch (kind) {
    case TurnNotice::Kind::Error: return ExportText::tr("Error");
    case TurnNotice::Kind::Limit: return ExportText::tr("Limit");
    case TurnNotice::Kind::Cancelled: return ExportText::tr("Cancelled");
    case TurnNotice::Kind::Blocked: return ExportText::tr("Blocked");
    case TurnNotice::Kind::Info: return ExportText::tr("Notice");
    case TurnNotice::Kind::Retry: return ExportText::tr("Retry");
    case TurnNotice::Kind::Recovered: return ExportText::tr("Recovered by retrying");
    case TurnNotice::Kind::RetriesFailed: return ExportText::tr("Retrying did not help");
    case TurnNotice::Kind::ContextFull: return ExportText::tr("Context nearly full");
    case TurnNotice::Kind::Compacted: return ExportText::tr("Compacted");
    }
    return {};
}

QList<ModelAndProvider> traceModels(const QJsonArray &trace)
{
    const std::optional<TraceForest> forest = Trace::readJson(trace);
    QList<ModelAndProvider> models;
    if (!forest)
        return models;
    for (int root : forest->roots)
        collectModels(*forest, root, models);
    return models;
}

UsedModels usedModels(const Transcript &transcript)
{
    UsedModels used;
    for (const ModelAndProvider &model : traceModels(transcript.trace)) {
        if (!used.models.contains(model.model))
            used.models << model.model;
        if (!model.provider.isEmpty() && !used.providers.contains(model.provider))
            used.providers << model.provider;
    }
    if (used.models.isEmpty() && !transcript.config.model.model.isEmpty())
        used.models << transcript.config.model.model;
    return used;
}

QString formatArguments(const QString &arguments, bool *isJson)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8(), &error);
    *isJson = error.error == QJsonParseError::NoError && !document.isNull();
    if (!*isJson)
        return arguments;
    if ((document.isObject() && document.object().isEmpty())
        || (document.isArray() && document.array().isEmpty()))
        return document.isObject() ? u"{}"_s : u"[]"_s; // not "{\n}"
    return QString::fromUtf8(document.toJson(QJsonDocument::Indented)).trimmed();
}

QString formatUtc(const QDateTime &time)
{
    if (!time.isValid())
        return {};
    return time.toUTC().toString(u"yyyy-MM-dd HH:mm 'UTC'"_s);
}

QString displayBaseUrl(const QUrl &url)
{
    if (url.isEmpty() || !url.isValid())
        return {};
    return SecretRedactor().url(url).toString(QUrl::RemoveUserInfo | QUrl::RemoveFragment);
}

TokenUsage traceUsage(const QJsonArray &json)
{
    Trace trace;
    if (!trace.fromJson(json))
        return {};
    TokenUsage usage;
    for (int root : trace.roots()) {
        if (const auto *turn = std::get_if<TurnData>(&trace.node(root).payload))
            usage += turn->usage;
    }
    return usage;
}

SessionCosts sessionCosts(const Transcript &transcript)
{
    std::optional<TraceForest> forest = Trace::readJson(transcript.trace);
    if (!forest)
        return {};
    fillMissingCosts(*forest, recordedPriceLookup(transcript.providerKind, transcript.baseUrl));
    SessionCosts costs;
    for (int root : std::as_const(forest->roots)) {
        const TraceNode &node = forest->nodes[size_t(root)];
        const auto *turn = std::get_if<TurnData>(&node.payload);
        if (!turn)
            continue;
        TurnCost cost{int(costs.turns.size()) + 1, turn->input, turn->usage, traceCost(*forest, root)};
        costs.total += cost.cost;
        costs.turns.append(cost);
    }
    return costs;
}

int userMessageCount(const QList<Message> &messages)
{
    return int(std::count_if(messages.cbegin(), messages.cend(),
                             [](const Message &m) { return m.role == Message::Role::User; }));
}

QString roleLabel(Message::Role role)
{
    switch (role) {
    case Message::Role::System: return ExportText::tr("System");
    case Message::Role::User: return ExportText::tr("User");
    case Message::Role::Assistant: return ExportText::tr("Assistant");
    case Message::Role::Tool: return ExportText::tr("Tool");
    }
    return {};
}

QString sessionTitle(const Transcript &transcript)
{
    const QString title = transcript.title.simplified();
    return title.isEmpty() ? ExportText::tr("Loopscope session") : title;
}

} // namespace Loopscope::Internal
