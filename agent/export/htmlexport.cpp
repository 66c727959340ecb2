#include "agent/export/htmlexport.h"

#include "agent/conversation/attachmentdescription.h"
#include "agent/export/exportsupport.h"
#include "agent/transcript/transcript.h"

#include <QRegularExpression>
#include <QXmlStreamWriter>

#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

using Internal::ExportText;

// No '<', '>', '&' or quotes: QXmlStreamWriter would escape them, and a
// <style> element is raw text to a browser, which would not unescape them.
constexpr QStringView styleSheet = uR"(
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--panel:#f6f8fa;
--user:#ddf4ff;--user-border:#54aeff;--tool:#fff8c5;--tool-border:#d4a72c;--error:#cf222e;--error-bg:#ffebe9;
--code:#eff2f5}
@media (prefers-color-scheme: dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;
--panel:#151b23;--user:#0c2d6b;--user-border:#1f6feb;--tool:#2e2a1a;--tool-border:#9e6a03;--error:#ff7b72;
--error-bg:#3c1618;--code:#262c36}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:56rem;padding:2rem 1.25rem 4rem;background:var(--bg);color:var(--fg);
font:16px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
h1{font-size:1.6rem;margin:0 0 .75rem}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0 0 1.5rem;
color:var(--muted);font-size:.9rem}
dl.meta dt{font-weight:600}
dl.meta dd{margin:0;overflow-wrap:anywhere}
.message{border:1px solid var(--border);border-radius:10px;padding:.75rem 1rem;margin:1rem 0}
.message.user{background:var(--user);border-color:var(--user-border)}
.message.system{background:var(--panel)}
.message.tool{background:var(--tool);border-color:var(--tool-border)}
.role{font-size:.8rem;font-weight:600;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);
margin:0 0 .4rem}
.content p{margin:.5rem 0}
.content h3,.content h4,.content h5,.content h6{margin:1rem 0 .4rem}
pre{background:var(--code);border-radius:6px;padding:.6rem .8rem;margin:.3rem 0;white-space:pre-wrap;
overflow-wrap:anywhere;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
p code,li code,td code,th code,summary code{background:var(--code);padding:.1em .3em;border-radius:4px}
table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid var(--border);padding:.3rem .6rem;text-align:left;vertical-align:top}
blockquote{margin:.5rem 0;padding:0 .9rem;border-left:3px solid var(--border);color:var(--muted)}
details{border:1px solid var(--tool-border);background:var(--tool);border-radius:8px;margin:.6rem 0;
padding:.4rem .8rem}
details.error{border-color:var(--error);background:var(--error-bg)}
details.system-prompt{border-color:var(--border);background:var(--panel)}
summary{cursor:pointer}
.badge{font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.05em;margin-right:.4rem}
details.error .badge,.label.error{color:var(--error)}
.call-id{color:var(--muted);font-size:.8rem;margin-left:.4rem}
.label{font-size:.8rem;font-weight:600;color:var(--muted);margin:.6rem 0 .2rem}
.notice{border-left:3px solid var(--tool-border);padding:.3rem .8rem;margin:.6rem 0;color:var(--muted)}
.notice.error,.notice.blocked{border-color:var(--error);color:var(--error)}
figure.attachment{margin:.6rem 0}
figure.attachment img{display:block;max-width:100%;height:auto;border:1px solid var(--border);border-radius:6px}
figcaption,.attachment.file{color:var(--muted);font-size:.85rem;margin-top:.2rem}
footer{margin-top:2rem;color:var(--muted);font-size:.8rem}
)";

// Text as XML 1.0 may carry it: the characters it forbids (C0 controls such
// as the ESC of terminal colours, unpaired surrogates, U+FFFE and U+FFFF)
// become U+FFFD, so a tool's raw output cannot make the file unreadable.
QString xmlSafe(const QString &text)
{
    QString result = text;
    for (qsizetype i = 0; i < result.size(); ++i) {
        const char16_t c = result.at(i).unicode();
        bool allowed = c >= 0x20 || c == u'\t' || c == u'\n' || c == u'\r';
        if (c == 0xfffe || c == 0xffff)
            allowed = false;
        if (QChar::isHighSurrogate(c)) {
            if (i + 1 < result.size() && result.at(i + 1).isLowSurrogate()) {
                ++i;
                continue;
            }
            allowed = false;
        } else if (QChar::isLowSurrogate(c)) {
            allowed = false;
        }
        if (!allowed)
            result[i] = QChar::ReplacementCharacter;
    }
    return result;
}

using Attributes = QList<std::pair<QString, QString>>;

/*
    QXmlStreamWriter with HTML's needs: every element but the void ones gets
    an explicit end tag (a browser reads "<div/>" as an unclosed <div>), and
    all text goes through xmlSafe().
*/
class HtmlWriter
{
public:
    explicit HtmlWriter(QByteArray *out)
        : m_xml(out)
    {}

    QXmlStreamWriter &xml() { return m_xml; }

    void start(const QString &name, const Attributes &attributes = {})
    {
        m_xml.writeStartElement(name);
        for (const auto &[key, value] : attributes)
            m_xml.writeAttribute(key, xmlSafe(value));
    }
    void end()
    {
        m_xml.writeCharacters(QString()); // closes the start tag: no "<div/>"
        m_xml.writeEndElement();
    }
    void text(const QString &text) { m_xml.writeCharacters(xmlSafe(text)); }
    void element(const QString &name, const QString &content, const Attributes &attributes = {})
    {
        start(name, attributes);
        text(content);
        end();
    }
    void voidElement(const QString &name, const Attributes &attributes = {})
    {
        m_xml.writeEmptyElement(name);
        for (const auto &[key, value] : attributes)
            m_xml.writeAttribute(key, xmlSafe(value));
    }
    void newline() { m_xml.writeCharacters(u"\n"_s); }

private:
    QXmlStreamWriter m_xml;
};

/*
    The little Markdown that LLM answers use, written as HTML. It only ever
    emits elements of its own choosing and hands content to the writer as
    text, so no input can produce markup. Anything it does not recognise
    stays visible as the text it was.
*/
class MarkdownToHtml
{
public:
    explicit MarkdownToHtml(HtmlWriter &out)
        : m_out(out)
    {}

    void write(const QString &markdown)
    {
        QString text = markdown;
        text.replace(u"\r\n"_s, u"\n"_s).replace(u'\r', u'\n');
        m_lines = text.split(u'\n');
        m_index = 0;
        while (m_index < m_lines.size()) {
            const QString &line = m_lines.at(m_index);
            if (line.trimmed().isEmpty()) {
                flushParagraph();
                ++m_index;
            } else if (const auto fence = fenceLine().match(line);
                       fence.hasMatch()
                       && !(fence.captured(1).front() == u'`' && fence.captured(2).contains(u'`'))) {
                flushParagraph();
                writeCodeBlock(fence.captured(1), fence.captured(2).trimmed());
            } else if (const auto heading = headingLine().match(line); heading.hasMatch()) {
                flushParagraph();
                const qsizetype level = std::min<qsizetype>(heading.capturedLength(1) + 2, 6);
                m_out.start(u"h"_s + QString::number(level));
                writeInline(heading.captured(2), 0);
                m_out.end();
                m_out.newline();
                ++m_index;
            } else if (ruleLine().match(line).hasMatch()) {
                flushParagraph();
                m_out.voidElement(u"hr"_s);
                m_out.newline();
                ++m_index;
            } else if (isTableStart()) {
                flushParagraph();
                writeTable();
            } else if (listItemLine().match(line).hasMatch()) {
                flushParagraph();
                writeList();
            } else if (quoteLine().match(line).hasMatch()) {
                flushParagraph();
                writeQuote();
            } else {
                m_paragraph.append(line.trimmed());
                ++m_index;
            }
        }
        flushParagraph();
    }

private:
    static const QRegularExpression &fenceLine()
    {
        static const QRegularExpression re(u"^ {0,3}(`{3,}|~{3,})(.*)$"_s);
        return re;
    }
    static const QRegularExpression &headingLine()
    {
        static const QRegularExpression re(u"^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$"_s);
        return re;
    }
    static const QRegularExpression &ruleLine()
    {
        static const QRegularExpression re(u"^ {0,3}([-*_])(?:[ \\t]*\\1){2,}[ \\t]*$"_s);
        return re;
    }
    static const QRegularExpression &listItemLine()
    {
        static const QRegularExpression re(u"^ {0,3}([-*+]|\\d{1,9}[.)])[ \\t]+(.*)$"_s);
        return re;
    }
    static const QRegularExpression &quoteLine()
    {
        static const QRegularExpression re(u"^ {0,3}> ?(.*)$"_s);
        return re;
    }
    static const QRegularExpression &delimiterRow()
    {
        static const QRegularExpression re(
            u"^ {0,3}\\|?[ \\t]*:?-+:?[ \\t]*(\\|[ \\t]*:?-+:?[ \\t]*)*\\|?[ \\t]*$"_s);
        return re;
    }

    void flushParagraph()
    {
        if (m_paragraph.isEmpty())
            return;
        m_out.start(u"p"_s);
        writeLines(m_paragraph);
        m_out.end();
        m_out.newline();
        m_paragraph.clear();
    }

    void writeLines(const QStringList &lines)
    {
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (i > 0)
                m_out.voidElement(u"br"_s);
            writeInline(lines.at(i), 0);
        }
    }

    void writeCodeBlock(const QString &marker, const QString &info)
    {
        ++m_index;
        QStringList code;
        while (m_index < m_lines.size()) {
            const QString &line = m_lines.at(m_index++);
            const auto close = fenceLine().match(line);
            if (close.hasMatch() && close.captured(1).front() == marker.front()
                && close.captured(1).size() >= marker.size() && close.captured(2).trimmed().isEmpty()) {
                break;
            }
            code.append(line);
        }
        m_out.start(u"pre"_s);
        static const QRegularExpression languageName(u"^[A-Za-z0-9_+#.-]{1,40}$"_s);
        const QString language = info.section(u' ', 0, 0);
        m_out.start(u"code"_s, languageName.match(language).hasMatch()
                                   ? Attributes{{u"class"_s, u"language-"_s + language}}
                                   : Attributes{});
        m_out.text(code.join(u'\n'));
        m_out.end();
        m_out.end();
        m_out.newline();
    }

    bool isTableStart() const
    {
        return m_index + 1 < m_lines.size() && m_lines.at(m_index).contains(u'|')
               && m_lines.at(m_index + 1).contains(u'|')
               && delimiterRow().match(m_lines.at(m_index + 1)).hasMatch();
    }

    static QStringList tableCells(const QString &row)
    {
        QString line = row.trimmed();
        if (line.startsWith(u'|'))
            line.remove(0, 1);
        if (line.endsWith(u'|') && !line.endsWith(u"\\|"_s))
            line.chop(1);
        QStringList cells;
        QString cell;
        for (qsizetype i = 0; i < line.size(); ++i) {
            if (line.at(i) == u'\\' && i + 1 < line.size() && line.at(i + 1) == u'|') {
                cell += u'|';
                ++i;
            } else if (line.at(i) == u'|') {
                cells.append(cell.trimmed());
                cell.clear();
            } else {
                cell += line.at(i);
            }
        }
        cells.append(cell.trimmed());
        return cells;
    }

    void writeTable()
    {
        const QStringList header = tableCells(m_lines.at(m_index));
        m_index += 2;
        m_out.start(u"table"_s);
        m_out.start(u"thead"_s);
        writeRow(u"th"_s, header);
        m_out.end();
        m_out.start(u"tbody"_s);
        while (m_index < m_lines.size() && !m_lines.at(m_index).trimmed().isEmpty()
               && m_lines.at(m_index).contains(u'|')) {
            writeRow(u"td"_s, tableCells(m_lines.at(m_index)));
            ++m_index;
        }
        m_out.end();
        m_out.end();
        m_out.newline();
    }

    void writeRow(const QString &cellElement, const QStringList &cells)
    {
        m_out.start(u"tr"_s);
        for (const QString &cell : cells) {
            m_out.start(cellElement);
            writeInline(cell, 0);
            m_out.end();
        }
        m_out.end();
    }

    void writeList()
    {
        const bool ordered = listItemLine().match(m_lines.at(m_index)).captured(1).front().isDigit();
        QList<QStringList> items;
        while (m_index < m_lines.size()) {
            const QString &line = m_lines.at(m_index);
            const auto item = listItemLine().match(line);
            if (item.hasMatch()) {
                if (item.captured(1).front().isDigit() != ordered)
                    break;
                items.append({item.captured(2).trimmed()});
            } else if (!line.trimmed().isEmpty() && (line.startsWith(u"  "_s) || line.startsWith(u'\t'))) {
                items.last().append(line.trimmed()); // a continuation line
            } else {
                break;
            }
            ++m_index;
        }
        m_out.start(ordered ? u"ol"_s : u"ul"_s);
        for (const QStringList &item : std::as_const(items)) {
            m_out.start(u"li"_s);
            writeLines(item);
            m_out.end();
        }
        m_out.end();
        m_out.newline();
    }

    void writeQuote()
    {
        QStringList lines;
        while (m_index < m_lines.size()) {
            const auto quote = quoteLine().match(m_lines.at(m_index));
            if (!quote.hasMatch())
                break;
            lines.append(quote.captured(1));
            ++m_index;
        }
        m_out.start(u"blockquote"_s);
        m_out.start(u"p"_s);
        writeLines(lines);
        m_out.end();
        m_out.end();
        m_out.newline();
    }

    // Code spans, **strong** and *emphasis*; backslash escapes; everything else is text.
    void writeInline(QStringView text, int depth)
    {
        QString plain;
        const auto flush = [&] {
            if (!plain.isEmpty())
                m_out.text(std::exchange(plain, QString()));
        };
        qsizetype i = 0;
        while (i < text.size()) {
            const QChar c = text.at(i);
            if (c == u'\\' && i + 1 < text.size() && text.at(i + 1).isPunct()) {
                plain += text.at(i + 1);
                i += 2;
                continue;
            }
            if (c == u'`') {
                qsizetype run = 0;
                while (i + run < text.size() && text.at(i + run) == u'`')
                    ++run;
                const qsizetype close = findRun(text, u'`', run, i + run);
                if (close < 0) {
                    plain += text.mid(i, run);
                    i += run;
                    continue;
                }
                QString code = text.mid(i + run, close - i - run).toString();
                if (code.size() > 1 && code.startsWith(u' ') && code.endsWith(u' ')
                    && !code.trimmed().isEmpty())
                    code = code.mid(1, code.size() - 2);
                flush();
                m_out.element(u"code"_s, code);
                i = close + run;
                continue;
            }
            if ((c == u'*' || c == u'_') && depth < 4) {
                const bool strong = i + 1 < text.size() && text.at(i + 1) == c;
                const qsizetype width = strong ? 2 : 1;
                // Single underscores stay text: they are far more often snake_case than emphasis.
                if (strong || c == u'*') {
                    const qsizetype close = findDelimiter(text, c, width, i + width);
                    if (close > i + width && !text.at(i + width).isSpace() && !text.at(close - 1).isSpace()) {
                        flush();
                        m_out.start(strong ? u"strong"_s : u"em"_s);
                        writeInline(text.mid(i + width, close - i - width), depth + 1);
                        m_out.end();
                        i = close + width;
                        continue;
                    }
                }
            }
            plain += c;
            ++i;
        }
        flush();
    }

    // The next run of exactly `length` characters c at or after from, or -1.
    static qsizetype findRun(QStringView text, QChar c, qsizetype length, qsizetype from)
    {
        qsizetype i = from;
        while (i < text.size()) {
            if (text.at(i) != c) {
                ++i;
                continue;
            }
            qsizetype run = 0;
            while (i + run < text.size() && text.at(i + run) == c)
                ++run;
            if (run == length)
                return i;
            i += run;
        }
        return -1;
    }

    // The closing delimiter for emphasis: `width` characters c, not inside a code span.
    static qsizetype findDelimiter(QStringView text, QChar c, qsizetype width, qsizetype from)
    {
        for (qsizetype i = from; i + width <= text.size(); ++i) {
            if (text.at(i) == u'`') {
                qsizetype run = 0;
                while (i + run < text.size() && text.at(i + run) == u'`')
                    ++run;
                const qsizetype close = findRun(text, u'`', run, i + run);
                if (close >= 0)
                    i = close + run - 1;
                else
                    i += run - 1;
                continue;
            }
            if (text.at(i) != c)
                continue;
            qsizetype run = 0;
            while (i + run < text.size() && text.at(i + run) == c)
                ++run;
            if (run == width)
                return i;
            i += run - 1;
        }
        return -1;
    }

    HtmlWriter &m_out;
    QStringList m_lines;
    qsizetype m_index = 0;
    QStringList m_paragraph;
};

// "gpt-a (openai), gpt-b (anthropic)"
QString modelList(const QList<Internal::ModelAndProvider> &models)
{
    QStringList names;
    for (const Internal::ModelAndProvider &model : models)
        names << (model.provider.isEmpty() ? model.model : model.model + u" ("_s + model.provider + u')');
    return names.join(u", "_s);
}

void writeMetadata(HtmlWriter &out, const Transcript &transcript)
{
    QList<std::pair<QString, QString>> rows;
    const auto [models, providers] = Internal::usedModels(transcript);
    if (!models.isEmpty())
        rows.append(
            {models.size() > 1 ? ExportText::tr("Models") : ExportText::tr("Model"), models.join(u", "_s)});
    if (providers.size() > 1) {
        rows.append({ExportText::tr("Providers"), providers.join(u", "_s)});
    } else {
        if (!transcript.providerKind.isEmpty())
            rows.append({ExportText::tr("Provider"), transcript.providerKind});
        if (const QString url = Internal::displayBaseUrl(transcript.baseUrl); !url.isEmpty())
            rows.append({ExportText::tr("Base URL"), url});
    }
    if (!transcript.config.name.isEmpty())
        rows.append({ExportText::tr("Agent"), transcript.config.name});
    if (const QString created = Internal::formatUtc(transcript.created); !created.isEmpty())
        rows.append({ExportText::tr("Created"), created});
    if (const QString updated = Internal::formatUtc(transcript.updated); !updated.isEmpty())
        rows.append({ExportText::tr("Updated"), updated});
    if (!transcript.tools.isEmpty())
        rows.append({ExportText::tr("Tools"), transcript.tools.join(u", "_s)});
    rows.append({ExportText::tr("Turns"), QString::number(Internal::userMessageCount(transcript.messages))});
    if (const TokenUsage usage = Internal::traceUsage(transcript.trace); !usage.isEmpty()) {
        rows.append({ExportText::tr("Tokens"),
                     ExportText::tr("%1 in, %2 out").arg(usage.inputTokens).arg(usage.outputTokens)});
    }
    if (const Internal::SessionCosts costs = Internal::sessionCosts(transcript); costs.hasCalls())
        rows.append({ExportText::tr("Cost"), formatCost(costs.total)});

    out.start(u"dl"_s, {{u"class"_s, u"meta"_s}});
    for (const auto &[label, value] : std::as_const(rows)) {
        out.element(u"dt"_s, label);
        out.element(u"dd"_s, value);
    }
    out.end();
    out.newline();
}

// Per turn, after the conversation: what each question used and cost.
void writeCosts(HtmlWriter &out, const Transcript &transcript)
{
    const Internal::SessionCosts costs = Internal::sessionCosts(transcript);
    if (!costs.hasCalls())
        return;
    out.start(u"section"_s, {{u"class"_s, u"costs"_s}});
    out.element(u"h2"_s, ExportText::tr("Cost per turn"));
    out.start(u"table"_s);
    out.start(u"tr"_s);
    for (const QString &heading :
         {ExportText::tr("Turn"), ExportText::tr("Question"), ExportText::tr("Tokens in"),
          ExportText::tr("Tokens out"), ExportText::tr("Cost")})
        out.element(u"th"_s, heading);
    out.end();
    for (const Internal::TurnCost &turn : costs.turns) {
        out.start(u"tr"_s);
        out.element(u"td"_s, QString::number(turn.number));
        out.element(u"td"_s, turn.input.simplified().left(120));
        out.element(u"td"_s, QString::number(turn.usage.inputTokens));
        out.element(u"td"_s, QString::number(turn.usage.outputTokens));
        out.element(u"td"_s, formatCost(turn.cost));
        out.end();
    }
    out.start(u"tr"_s, {{u"class"_s, u"total"_s}});
    out.element(u"td"_s, QString());
    out.element(u"th"_s, ExportText::tr("Session"));
    out.element(u"td"_s, QString());
    out.element(u"td"_s, QString());
    out.element(u"th"_s, formatCost(costs.total));
    out.end();
    out.end(); // table
    out.end(); // section
    out.newline();
}

void writeAttachments(HtmlWriter &out, const QList<Attachment> &attachments);

void writeResult(HtmlWriter &out, const Message &result)
{
    out.element(u"div"_s, result.isError ? ExportText::tr("Error") : ExportText::tr("Result"),
                {{u"class"_s, result.isError ? u"label error"_s : u"label"_s}});
    out.element(u"pre"_s, result.text, {{u"class"_s, u"result"_s}});
    // A result's images (an MCP tool's screenshot, say) show under its text, as the model got them.
    writeAttachments(out, result.attachments);
}

void writeExchange(HtmlWriter &out, const Internal::ToolExchange &exchange)
{
    const bool failed = exchange.result && exchange.result->isError;
    Attributes attributes{{u"class"_s, failed ? u"tool-call error"_s : u"tool-call"_s}};
    if (failed)
        attributes.append({u"open"_s, u"open"_s}); // failures are what a reader looks for
    out.start(u"details"_s, attributes);
    out.start(u"summary"_s);
    out.element(u"span"_s, failed ? ExportText::tr("Tool error") : ExportText::tr("Tool call"),
                {{u"class"_s, u"badge"_s}});
    out.element(u"code"_s, exchange.call.name);
    if (!exchange.call.id.isEmpty())
        out.element(u"span"_s, exchange.call.id, {{u"class"_s, u"call-id"_s}});
    out.end();

    bool isJson = false;
    const QString arguments = Internal::formatArguments(exchange.call.arguments, &isJson);
    out.element(u"div"_s,
                isJson || arguments.trimmed().isEmpty() ? ExportText::tr("Arguments")
                                                        : ExportText::tr("Arguments (not valid JSON)"),
                {{u"class"_s, u"label"_s}});
    out.start(u"pre"_s, {{u"class"_s, u"arguments"_s}});
    out.element(u"code"_s, arguments, isJson ? Attributes{{u"class"_s, u"language-json"_s}} : Attributes{});
    out.end();

    if (exchange.result)
        writeResult(out, *exchange.result);
    else
        out.element(u"div"_s, ExportText::tr("No result was recorded."), {{u"class"_s, u"label"_s}});
    out.end();
    out.newline();
}

QString roleClass(Message::Role role)
{
    return roleName(role); // "system", "user", "assistant", "tool"
}

QString noticeClass(TurnNotice::Kind kind)
{
    switch (kind) {
    case TurnNotice::Kind::Error:
    case TurnNotice::Kind::RetriesFailed: return u"notice error"_s;
    case TurnNotice::Kind::Blocked: return u"notice blocked"_s;
    case TurnNotice::Kind::Limit:
    case TurnNotice::Kind::Cancelled:
    case TurnNotice::Kind::Info:
    case TurnNotice::Kind::Retry:
    case TurnNotice::Kind::Recovered:
    case TurnNotice::Kind::ContextFull:
    case TurnNotice::Kind::Compacted: break;
    }
    return u"notice"_s;
}

// A notice as the chat shows it between the messages: a failure, a retry, a limit, …
void writeNotice(HtmlWriter &out, const TurnNotice &notice)
{
    out.start(u"p"_s, {{u"class"_s, noticeClass(notice.kind)}});
    out.element(u"strong"_s, Internal::noticeLabel(notice.kind) + u':');
    out.text(u" "_s + notice.text);
    out.end();
    out.newline();
}

/*
    The files that went with a message: an image shown where it was sent, from a data: URL (the page
    stays one file; its Content-Security-Policy allows images from data: only), any other file named
    with its type and size.
*/
void writeAttachments(HtmlWriter &out, const QList<Attachment> &attachments)
{
    for (const Attachment &attachment : attachments) {
        const QString caption = attachment.name + u" · "_s + describeAttachment(attachment);
        if (const QString url = attachmentDataUrl(attachment); !url.isEmpty()) {
            out.start(u"figure"_s, {{u"class"_s, u"attachment image"_s}});
            Attributes image{{u"src"_s, url}, {u"alt"_s, attachment.name}};
            if (attachment.pixelSize.isValid()) {
                image.append({u"width"_s, QString::number(attachment.pixelSize.width())});
                image.append({u"height"_s, QString::number(attachment.pixelSize.height())});
            }
            out.voidElement(u"img"_s, image);
            out.element(u"figcaption"_s, caption);
            out.end();
        } else {
            out.element(u"div"_s, ExportText::tr("Attached: %1").arg(caption),
                        {{u"class"_s, u"attachment file"_s}});
        }
        out.newline();
    }
}

void writeEntry(HtmlWriter &out, const Internal::ConversationEntry &entry)
{
    const Message &message = *entry.message;
    out.start(u"section"_s, {{u"class"_s, u"message "_s + roleClass(message.role)}});
    out.element(u"h2"_s, Internal::roleLabel(message.role), {{u"class"_s, u"role"_s}});
    if (!entry.answeredBy.isEmpty()) {
        out.element(u"div"_s, ExportText::tr("Model: %1").arg(modelList(entry.answeredBy)),
                    {{u"class"_s, u"label model"_s}});
    }
    if (message.role == Message::Role::Tool) {
        // A result that answers no call before it.
        out.element(u"div"_s, ExportText::tr("Result of %1 (%2)").arg(message.toolName, message.toolCallId),
                    {{u"class"_s, u"label"_s}});
        out.element(u"pre"_s, message.text,
                    {{u"class"_s, message.isError ? u"result error"_s : u"result"_s}});
    } else {
        if (!message.text.trimmed().isEmpty()) {
            out.start(u"div"_s, {{u"class"_s, u"content"_s}});
            MarkdownToHtml(out).write(message.text);
            out.end();
        }
        writeAttachments(out, message.attachments);
        for (const Internal::ToolExchange &exchange : entry.exchanges)
            writeExchange(out, exchange);
    }
    out.end();
    out.newline();
    for (const TurnNotice &notice : entry.notices)
        writeNotice(out, notice);
}

} // namespace

QByteArray exportHtml(const Transcript &transcript)
{
    QByteArray html;
    HtmlWriter out(&html);
    out.xml().writeDTD(u"<!DOCTYPE html>"_s);
    out.newline();
    out.start(u"html"_s, {{u"xmlns"_s, u"http://www.w3.org/1999/xhtml"_s}, {u"lang"_s, u"en"_s}});
    out.newline();

    out.start(u"head"_s);
    out.voidElement(u"meta"_s, {{u"charset"_s, u"utf-8"_s}});
    // Belt and braces: even a browser that met markup here would load and run nothing.
    out.voidElement(u"meta"_s,
                    {{u"http-equiv"_s, u"Content-Security-Policy"_s},
                     {u"content"_s, u"default-src 'none'; style-src 'unsafe-inline'; img-src data:"_s}});
    out.voidElement(u"meta"_s,
                    {{u"name"_s, u"viewport"_s}, {u"content"_s, u"width=device-width, initial-scale=1"_s}});
    out.voidElement(u"meta"_s, {{u"name"_s, u"color-scheme"_s}, {u"content"_s, u"light dark"_s}});
    out.voidElement(u"meta"_s, {{u"name"_s, u"generator"_s}, {u"content"_s, u"Loopscope"_s}});
    out.element(u"title"_s, Internal::sessionTitle(transcript));
    out.element(u"style"_s, styleSheet.toString());
    out.end();
    out.newline();

    out.start(u"body"_s);
    out.start(u"header"_s);
    out.element(u"h1"_s, Internal::sessionTitle(transcript));
    writeMetadata(out, transcript);
    if (!transcript.config.systemPrompt.trimmed().isEmpty()) {
        out.start(u"details"_s, {{u"class"_s, u"system-prompt"_s}});
        out.element(u"summary"_s, ExportText::tr("System prompt"));
        out.element(u"pre"_s, transcript.config.systemPrompt);
        out.end();
    }
    out.end();
    out.newline();

    out.start(u"main"_s);
    out.newline();
    const QList<Internal::ConversationEntry> entries = Internal::conversationEntries(transcript);
    for (const Internal::ConversationEntry &entry : entries)
        writeEntry(out, entry);
    writeCosts(out, transcript);
    out.end();
    out.newline();

    out.element(u"footer"_s, ExportText::tr("Exported from Loopscope."));
    out.end(); // body
    out.newline();
    out.end(); // html
    out.newline();
    return html;
}

} // namespace Loopscope
