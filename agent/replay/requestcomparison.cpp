#include "agent/replay/requestcomparison.h"

#include <QJsonDocument>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

constexpr qsizetype QuoteWindow = 60;
constexpr qsizetype QuoteLead = 20;

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QString quoted(const QString &text, qsizetype start)
{
    QString shown = text.mid(start, QuoteWindow);
    const bool cutBefore = start > 0;
    const bool cutAfter = start + QuoteWindow < text.size();
    shown.replace(u'\n', u"\\n"_s);
    return u'"' + (cutBefore ? u"…"_s : QString()) + shown + (cutAfter ? u"…"_s : QString()) + u'"';
}

QString names(const QList<ToolSchema> &tools)
{
    QStringList list;
    for (const ToolSchema &tool : tools)
        list.append(tool.name);
    return list.isEmpty() ? RequestComparison::tr("none") : list.join(u", "_s);
}

QString optionalNumber(const std::optional<double> &value)
{
    return value ? QString::number(*value) : RequestComparison::tr("unset");
}

QString optionalNumber(const std::optional<int> &value)
{
    return value ? QString::number(*value) : RequestComparison::tr("unset");
}

std::optional<QString> toolCallDifference(int number, const ToolCall &recorded, const ToolCall &now)
{
    using RC = RequestComparison;
    if (recorded.name != now.name)
        return RC::tr("tool call %1: recorded %2, now %3").arg(number).arg(recorded.name, now.name);
    if (recorded.arguments != now.arguments)
        return RC::tr("the arguments of tool call %1 (%2): %3")
            .arg(number)
            .arg(recorded.name, RC::recordedNow(recorded.arguments, now.arguments));
    if (recorded.id != now.id)
        return RC::tr("the id of tool call %1 (%2): %3")
            .arg(number)
            .arg(recorded.name, RC::recordedNow(recorded.id, now.id));
    if (recorded.providerData != now.providerData)
        return RC::tr("the provider data of tool call %1 (%2): %3")
            .arg(number)
            .arg(recorded.name,
                 RC::recordedNow(compactJson(recorded.providerData), compactJson(now.providerData)));
    return std::nullopt;
}

// "photo.png (sha256 1f2e…)", one per attachment: what tells two attachments apart.
QString attachmentNames(const Message &message)
{
    QStringList names;
    for (const Attachment &attachment : message.attachments)
        names.append(
            u"%1 (sha256 %2…)"_s.arg(attachment.name, QString::fromLatin1(attachment.sha256.left(12))));
    return names.isEmpty() ? RequestComparison::tr("none") : names.join(u", "_s);
}

std::optional<QString> messageDifference(const Message &recorded, const Message &now)
{
    using RC = RequestComparison;
    if (recorded.role != now.role)
        return RC::tr("recorded as %1, now %2").arg(RC::describe(recorded), RC::describe(now));
    if (recorded.text != now.text)
        return RC::recordedNow(recorded.text, now.text);
    if (recorded.isError != now.isError)
        return recorded.isError ? RC::tr("recorded an error, now a success")
                                : RC::tr("recorded a success, now an error");
    if (recorded.toolCallId != now.toolCallId)
        return RC::tr("it answers call %1").arg(RC::recordedNow(recorded.toolCallId, now.toolCallId));
    if (recorded.toolName != now.toolName)
        return RC::tr("the tool it names: %1").arg(RC::recordedNow(recorded.toolName, now.toolName));
    for (int i = 0; i < std::min(recorded.toolCalls.size(), now.toolCalls.size()); ++i) {
        if (auto difference = toolCallDifference(i + 1, recorded.toolCalls.at(i), now.toolCalls.at(i)))
            return difference;
    }
    if (recorded.toolCalls.size() != now.toolCalls.size())
        return RC::tr("recorded %1 tool calls, now %2")
            .arg(recorded.toolCalls.size())
            .arg(now.toolCalls.size());
    if (recorded.attachments != now.attachments)
        return RC::tr("the attachments: %1")
            .arg(RC::recordedNow(attachmentNames(recorded), attachmentNames(now)));
    return std::nullopt;
}

std::optional<QString> toolsDifference(const QList<ToolSchema> &recorded, const QList<ToolSchema> &now)
{
    using RC = RequestComparison;
    if (names(recorded) != names(now))
        return RC::tr("the tools differ: recorded %1; now %2").arg(names(recorded), names(now));
    for (int i = 0; i < recorded.size(); ++i) {
        const ToolSchema &a = recorded.at(i);
        const ToolSchema &b = now.at(i);
        if (a.description != b.description)
            return RC::tr("the description of tool %1 differs: %2")
                .arg(a.name, RC::recordedNow(a.description, b.description));
        if (a.parameters != b.parameters)
            return RC::tr("the parameters of tool %1 differ: %2")
                .arg(a.name, RC::recordedNow(compactJson(a.parameters), compactJson(b.parameters)));
    }
    return std::nullopt;
}

std::optional<QString> optionsDifference(const ModelOptions &recorded, const ModelOptions &now)
{
    using RC = RequestComparison;
    if (recorded.model != now.model)
        return RC::tr("the model differs: %1").arg(RC::recordedNow(recorded.model, now.model));
    if (recorded.temperature != now.temperature)
        return RC::tr("the temperature differs: recorded %1, now %2")
            .arg(optionalNumber(recorded.temperature), optionalNumber(now.temperature));
    if (recorded.topP != now.topP)
        return RC::tr("top p differs: recorded %1, now %2")
            .arg(optionalNumber(recorded.topP), optionalNumber(now.topP));
    if (recorded.maxOutputTokens != now.maxOutputTokens)
        return RC::tr("the output token limit differs: recorded %1, now %2")
            .arg(optionalNumber(recorded.maxOutputTokens), optionalNumber(now.maxOutputTokens));
    return std::nullopt; // stream: how the answer arrives, not what is asked
}

} // namespace

std::optional<QString> RequestComparison::difference(const ModelRequest &recorded, const ModelRequest &now)
{
    const qsizetype common = std::min(recorded.messages.size(), now.messages.size());
    for (qsizetype i = 0; i < common; ++i) {
        const Message &a = recorded.messages.at(i);
        if (auto what = messageDifference(a, now.messages.at(i)))
            return tr("message %1 (%2) differs: %3").arg(i + 1).arg(describe(a), *what);
    }
    if (now.messages.size() > common)
        return tr("message %1 (%2) is new: the recording has %3 messages")
            .arg(common + 1)
            .arg(describe(now.messages.at(common)))
            .arg(common);
    if (recorded.messages.size() > common)
        return tr("message %1 (%2) is missing: the replay has %3 messages")
            .arg(common + 1)
            .arg(describe(recorded.messages.at(common)))
            .arg(common);
    if (auto what = toolsDifference(recorded.tools, now.tools))
        return what;
    if (recorded.toolChoice != now.toolChoice)
        return tr("the tool choice differs: recorded %1, now %2")
            .arg(toolChoiceName(recorded.toolChoice), toolChoiceName(now.toolChoice));
    return optionsDifference(recorded.options, now.options);
}

bool RequestComparison::sameArguments(const QString &a, const QString &b)
{
    if (a == b)
        return true;
    QJsonParseError errorA;
    QJsonParseError errorB;
    const QJsonDocument documentA = QJsonDocument::fromJson(a.toUtf8(), &errorA);
    const QJsonDocument documentB = QJsonDocument::fromJson(b.toUtf8(), &errorB);
    if (errorA.error != QJsonParseError::NoError || errorB.error != QJsonParseError::NoError)
        return a.trimmed() == b.trimmed();
    return documentA == documentB;
}

QString RequestComparison::describe(const Message &message)
{
    switch (message.role) {
    case Message::Role::System: return tr("system message");
    case Message::Role::User: return tr("user message");
    case Message::Role::Assistant: {
        if (message.toolCalls.isEmpty())
            return tr("assistant message");
        QStringList called;
        for (const ToolCall &call : message.toolCalls)
            called.append(call.name);
        return tr("assistant message calling %1").arg(called.join(u", "_s));
    }
    case Message::Role::Tool: return tr("tool result of %1").arg(message.toolName);
    }
    return {};
}

QString RequestComparison::recordedNow(const QString &recorded, const QString &now)
{
    qsizetype first = 0;
    while (first < recorded.size() && first < now.size() && recorded.at(first) == now.at(first))
        ++first;
    const qsizetype longest = std::max(recorded.size(), now.size());
    qsizetype start = 0;
    if (longest > QuoteWindow)
        start = std::clamp<qsizetype>(first - QuoteLead, 0, longest - QuoteWindow);
    return tr("recorded %1, now %2")
        .arg(quoted(recorded, std::min(start, recorded.size())), quoted(now, std::min(start, now.size())));
}

} // namespace Loopscope
