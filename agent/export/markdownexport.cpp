#include "agent/export/markdownexport.h"

#include "agent/conversation/attachmentdescription.h"
#include "agent/export/exportsupport.h"
#include "agent/transcript/transcript.h"

#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

using Internal::ExportText;

qsizetype longestRun(const QString &text, QChar c)
{
    qsizetype longest = 0;
    qsizetype run = 0;
    for (QChar ch : text) {
        run = ch == c ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return longest;
}

QString normalisedLineEnds(QString text)
{
    return text.replace(u"\r\n"_s, u"\n"_s).replace(u'\r', u'\n');
}

// Backslash-escapes what Markdown would read as markup in a line of text.
QString escapeInline(const QString &text)
{
    static const QString special = u"\\`*_[]<>#|~&!"_s;
    QString result;
    result.reserve(text.size() + 8);
    for (QChar c : text.simplified()) {
        if (special.contains(c))
            result += u'\\';
        result += c;
    }
    return result;
}

// A code span that holds any text: its backtick run is longer than any inside.
QString inlineCode(const QString &text)
{
    const QString content = text.simplified();
    if (content.isEmpty())
        return u"*("_s + ExportText::tr("none") + u")*"_s;
    const QString ticks(longestRun(content, u'`') + 1, u'`');
    const bool pad = content.startsWith(u'`') || content.endsWith(u'`');
    const QString padding = pad ? u" "_s : QString();
    return ticks + padding + content + padding + ticks;
}

// A fenced block that holds any text: the fence is longer than any backtick run in it.
QString codeBlock(const QString &content, const QString &info)
{
    const QString text = normalisedLineEnds(content);
    const QString fence(std::max<qsizetype>(3, longestRun(text, u'`') + 1), u'`');
    QString block = fence + info + u'\n' + text;
    if (!text.isEmpty() && !text.endsWith(u'\n'))
        block += u'\n';
    return block + fence + u"\n\n"_s;
}

/*
    A line of prose with its raw HTML made inert: '<' outside code spans
    becomes "&lt;", which every renderer shows as '<' but none treats as a
    tag. A Markdown viewer that passes HTML through then still shows a
    message holding "<script>" as text.
*/
QString inertHtml(const QString &line)
{
    // Indented code (or a list's continuation: either way leave it be).
    if (line.startsWith(u"    "_s) || line.startsWith(u'\t'))
        return line;
    QString result;
    result.reserve(line.size());
    qsizetype i = 0;
    while (i < line.size()) {
        if (line.at(i) == u'`') {
            qsizetype run = 0;
            while (i + run < line.size() && line.at(i + run) == u'`')
                ++run;
            // A code span runs to the next run of exactly as many backticks.
            qsizetype close = i + run;
            while (close < line.size()) {
                close = line.indexOf(QString(run, u'`'), close);
                if (close < 0)
                    break;
                qsizetype length = 0;
                while (close + length < line.size() && line.at(close + length) == u'`')
                    ++length;
                if (length == run)
                    break;
                close += length;
            }
            const qsizetype end = close < 0 || close >= line.size() ? i + run : close + run;
            result += line.mid(i, end - i);
            i = end;
            continue;
        }
        if (line.at(i) == u'<')
            result += u"&lt;"_s;
        else
            result += line.at(i);
        ++i;
    }
    return result;
}

/*
    A message's own Markdown, made safe to embed: its headings move two levels
    down so they sit below the role heading, raw HTML is made inert, and a
    fence it leaves open (a truncated answer) is closed, so it cannot swallow
    the rest of the document.
*/
QString embeddedMarkdown(const QString &text)
{
    static const QRegularExpression fenceLine(u"^ {0,3}(`{3,}|~{3,})(.*)$"_s);
    static const QRegularExpression headingLine(u"^( {0,3})(#{1,6})(?=[ \\t]|$)"_s);

    QStringList lines = normalisedLineEnds(text).split(u'\n');
    QString openFence;
    for (QString &line : lines) {
        if (const QRegularExpressionMatch fence = fenceLine.match(line); fence.hasMatch()) {
            const QString marker = fence.captured(1);
            const QString rest = fence.captured(2);
            if (openFence.isEmpty()) {
                // An info string with a backtick does not open a backtick fence.
                if (!(marker.front() == u'`' && rest.contains(u'`')))
                    openFence = marker;
            } else if (marker.front() == openFence.front() && marker.size() >= openFence.size()
                       && rest.trimmed().isEmpty()) {
                openFence.clear();
            }
            continue;
        }
        if (openFence.isEmpty()) {
            if (const QRegularExpressionMatch heading = headingLine.match(line); heading.hasMatch()) {
                const qsizetype level = std::min<qsizetype>(heading.capturedLength(2) + 2, 6);
                line.replace(heading.capturedStart(2), heading.capturedLength(2), QString(level, u'#'));
            }
            line = inertHtml(line);
        }
    }
    while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty())
        lines.removeLast();
    QString result = lines.join(u'\n');
    if (!openFence.isEmpty())
        result += u'\n' + openFence;
    return result;
}

// "`gpt-a` (openai), `gpt-b` (anthropic)"
QString modelList(const QList<Internal::ModelAndProvider> &models)
{
    QStringList names;
    for (const Internal::ModelAndProvider &model : models) {
        QString name = inlineCode(model.model);
        if (!model.provider.isEmpty())
            name += u" ("_s + escapeInline(model.provider) + u')';
        names << name;
    }
    return names.join(u", "_s);
}

/*
    The models the turns used, as the trace recorded them (the session's
    current model only when the trace recorded none), and the provider with
    its base URL when the turns used one provider.
*/
void appendModels(QStringList &first, const Transcript &transcript)
{
    const auto [models, providers] = Internal::usedModels(transcript);
    if (!models.isEmpty()) {
        QStringList codes;
        for (const QString &model : std::as_const(models))
            codes << inlineCode(model);
        first << u"**"_s + (models.size() > 1 ? ExportText::tr("Models:") : ExportText::tr("Model:"))
                     + u"** "_s + codes.join(u", "_s);
    }
    if (providers.size() > 1) {
        QStringList names;
        for (const QString &provider : std::as_const(providers))
            names << escapeInline(provider);
        first << u"**"_s + ExportText::tr("Providers:") + u"** "_s + names.join(u", "_s);
    } else if (!transcript.providerKind.isEmpty()) {
        QString provider
            = u"**"_s + ExportText::tr("Provider:") + u"** "_s + escapeInline(transcript.providerKind);
        if (const QString url = Internal::displayBaseUrl(transcript.baseUrl); !url.isEmpty())
            provider += u" ("_s + inlineCode(url) + u')';
        first << provider;
    }
}

void appendMetadata(QString &out, const Transcript &transcript)
{
    QStringList first;
    appendModels(first, transcript);
    if (!transcript.config.name.isEmpty())
        first << u"**"_s + ExportText::tr("Agent:") + u"** "_s + escapeInline(transcript.config.name);
    if (const QString created = Internal::formatUtc(transcript.created); !created.isEmpty())
        first << u"**"_s + ExportText::tr("Created:") + u"** "_s + created;
    if (const QString updated = Internal::formatUtc(transcript.updated); !updated.isEmpty())
        first << u"**"_s + ExportText::tr("Updated:") + u"** "_s + updated;

    QStringList second;
    if (!transcript.tools.isEmpty()) {
        QStringList tools;
        for (const QString &tool : transcript.tools)
            tools << inlineCode(tool);
        second << u"**"_s + ExportText::tr("Tools:") + u"** "_s + tools.join(u", "_s);
    }
    second << u"**"_s + ExportText::tr("Turns:") + u"** "_s
                  + QString::number(Internal::userMessageCount(transcript.messages));
    if (const TokenUsage usage = Internal::traceUsage(transcript.trace); !usage.isEmpty()) {
        second << u"**"_s + ExportText::tr("Tokens:") + u"** "_s
                      + ExportText::tr("%1 in, %2 out").arg(usage.inputTokens).arg(usage.outputTokens);
    }
    if (const Internal::SessionCosts costs = Internal::sessionCosts(transcript); costs.hasCalls())
        second << u"**"_s + ExportText::tr("Cost:") + u"** "_s + formatCost(costs.total);

    if (!first.isEmpty())
        out += first.join(u" · "_s) + u"\n\n"_s;
    out += second.join(u" · "_s) + u"\n\n"_s;
}

// Per turn, after the conversation: what each question used and cost.
void appendCosts(QString &out, const Transcript &transcript)
{
    const Internal::SessionCosts costs = Internal::sessionCosts(transcript);
    if (!costs.hasCalls())
        return;
    out += u"## "_s + ExportText::tr("Cost per turn") + u"\n\n"_s;
    out += u"| "_s + ExportText::tr("Turn") + u" | "_s + ExportText::tr("Question") + u" | "_s
           + ExportText::tr("Tokens in") + u" | "_s + ExportText::tr("Tokens out") + u" | "_s
           + ExportText::tr("Cost") + u" |\n| ---: | --- | ---: | ---: | ---: |\n"_s;
    for (const Internal::TurnCost &turn : costs.turns) {
        QString question = turn.input.simplified();
        if (question.size() > 60)
            question = question.left(59) + u'…';
        out += u"| "_s + QString::number(turn.number) + u" | "_s
               + escapeInline(question).replace(u'|', u"\\|"_s) + u" | "_s
               + QString::number(turn.usage.inputTokens) + u" | "_s + QString::number(turn.usage.outputTokens)
               + u" | "_s + formatCost(turn.cost) + u" |\n"_s;
    }
    out += u"| | **"_s + ExportText::tr("Session") + u"** | | | **"_s + formatCost(costs.total)
           + u"** |\n\n"_s;
}

void appendAttachments(QString &out, const QList<Attachment> &attachments);

// A result's images (an MCP tool's screenshot, say) show under its text, as the model got them.
void appendResult(QString &out, const Message &result)
{
    out += u"**"_s + (result.isError ? ExportText::tr("Result (error)") : ExportText::tr("Result"))
           + u"**\n\n"_s;
    out += codeBlock(result.text, u"text"_s);
    appendAttachments(out, result.attachments);
}

void appendExchange(QString &out, const Internal::ToolExchange &exchange)
{
    out += u"### "_s + ExportText::tr("Tool call") + u' ' + inlineCode(exchange.call.name);
    if (!exchange.call.id.isEmpty())
        out += u" ("_s + inlineCode(exchange.call.id) + u')';
    out += u"\n\n"_s;

    bool isJson = false;
    const QString arguments = Internal::formatArguments(exchange.call.arguments, &isJson);
    if (!isJson && !arguments.trimmed().isEmpty())
        out += u'*' + ExportText::tr("The arguments are not valid JSON:") + u"*\n\n"_s;
    out += codeBlock(arguments, isJson ? u"json"_s : u"text"_s);

    if (exchange.result)
        appendResult(out, *exchange.result);
    else
        out += u'*' + ExportText::tr("No result was recorded.") + u"*\n\n"_s;
}

/*
    The files that went with a message: an image shown where it was sent, as a data: URL so the
    document stays one file (viewers that refuse data: URLs still show its name); any other file
    named with its type and size.
*/
void appendAttachments(QString &out, const QList<Attachment> &attachments)
{
    for (const Attachment &attachment : attachments) {
        const QString caption
            = escapeInline(attachment.name) + u" ("_s + escapeInline(describeAttachment(attachment)) + u')';
        if (const QString url = attachmentDataUrl(attachment); !url.isEmpty()) {
            // A base64 data: URL holds no space, parenthesis or bracket: nothing in it ends the link.
            out += u"!["_s + escapeInline(attachment.name) + u"]("_s + url + u")\n"_s;
            out += u'*' + caption + u"*\n\n"_s;
        } else {
            out += u"**"_s + ExportText::tr("Attached:") + u"** "_s + caption + u"\n\n"_s;
        }
    }
}

void appendEntry(QString &out, const Internal::ConversationEntry &entry)
{
    const Message &message = *entry.message;
    if (message.role == Message::Role::Tool) {
        // A result that answers no call before it.
        out += u"### "_s + ExportText::tr("Tool result") + u' ' + inlineCode(message.toolName);
        if (!message.toolCallId.isEmpty())
            out += u" ("_s + inlineCode(message.toolCallId) + u')';
        out += u"\n\n"_s;
        appendResult(out, message);
        return;
    }
    out += u"## "_s + Internal::roleLabel(message.role) + u"\n\n"_s;
    if (!entry.answeredBy.isEmpty())
        out += u"**"_s + ExportText::tr("Model:") + u"** "_s + modelList(entry.answeredBy) + u"\n\n"_s;
    if (const QString text = embeddedMarkdown(message.text); !text.trimmed().isEmpty())
        out += text + u"\n\n"_s;
    appendAttachments(out, message.attachments);
    for (const Internal::ToolExchange &exchange : entry.exchanges)
        appendExchange(out, exchange);
}

// A notice as the chat shows it between the messages: a failure, a retry, a limit, …
void appendNotice(QString &out, const TurnNotice &notice)
{
    out += u"> **"_s + Internal::noticeLabel(notice.kind) + u":** "_s + escapeInline(notice.text) + u"\n\n"_s;
}

} // namespace

QString exportMarkdown(const Transcript &transcript)
{
    QString out = u"# "_s + escapeInline(Internal::sessionTitle(transcript)) + u"\n\n"_s;
    appendMetadata(out, transcript);

    if (!transcript.config.systemPrompt.trimmed().isEmpty()) {
        out += u"## "_s + ExportText::tr("System prompt") + u"\n\n"_s;
        out += codeBlock(transcript.config.systemPrompt, u"text"_s);
    }
    out += u"---\n\n"_s;

    const QList<Internal::ConversationEntry> entries = Internal::conversationEntries(transcript);
    for (const Internal::ConversationEntry &entry : entries) {
        appendEntry(out, entry);
        for (const TurnNotice &notice : entry.notices)
            appendNotice(out, notice);
    }
    appendCosts(out, transcript);

    while (out.endsWith(u"\n\n"_s))
        out.chop(1);
    return out;
}

} // namespace Loopscope
