#include "agent/tools/builtin/htmltext.h"

#include <QHash>
#include <QList>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

const QHash<QString, char32_t> &namedEntities()
{
    static const QHash<QString, char32_t> entities{
        {u"amp"_s, U'&'},     {u"lt"_s, U'<'},       {u"gt"_s, U'>'},       {u"quot"_s, U'"'},
        {u"apos"_s, U'\''},   {u"nbsp"_s, 0xA0},     {u"copy"_s, 0xA9},     {u"reg"_s, 0xAE},
        {u"trade"_s, 0x2122}, {u"mdash"_s, 0x2014},  {u"ndash"_s, 0x2013},  {u"hellip"_s, 0x2026},
        {u"laquo"_s, 0xAB},   {u"raquo"_s, 0xBB},    {u"lsquo"_s, 0x2018},  {u"rsquo"_s, 0x2019},
        {u"ldquo"_s, 0x201C}, {u"rdquo"_s, 0x201D},  {u"sbquo"_s, 0x201A},  {u"bdquo"_s, 0x201E},
        {u"bull"_s, 0x2022},  {u"middot"_s, 0xB7},   {u"euro"_s, 0x20AC},   {u"pound"_s, 0xA3},
        {u"yen"_s, 0xA5},     {u"cent"_s, 0xA2},     {u"sect"_s, 0xA7},     {u"para"_s, 0xB6},
        {u"deg"_s, 0xB0},     {u"plusmn"_s, 0xB1},   {u"times"_s, 0xD7},    {u"divide"_s, 0xF7},
        {u"frac12"_s, 0xBD},  {u"frac14"_s, 0xBC},   {u"frac34"_s, 0xBE},   {u"shy"_s, 0xAD},
        {u"auml"_s, 0xE4},    {u"ouml"_s, 0xF6},     {u"uuml"_s, 0xFC},     {u"Auml"_s, 0xC4},
        {u"Ouml"_s, 0xD6},    {u"Uuml"_s, 0xDC},     {u"szlig"_s, 0xDF},    {u"eacute"_s, 0xE9},
        {u"egrave"_s, 0xE8},  {u"agrave"_s, 0xE0},   {u"ccedil"_s, 0xE7},   {u"rarr"_s, 0x2192},
        {u"larr"_s, 0x2190},  {u"hearts"_s, 0x2665}, {u"zwj"_s, 0x200D},    {u"zwnj"_s, 0x200C},
        {u"ensp"_s, 0x2002},  {u"emsp"_s, 0x2003},   {u"thinsp"_s, 0x2009}, {u"iexcl"_s, 0xA1},
        {u"iquest"_s, 0xBF},
    };
    return entities;
}

// Elements whose content is no text for a reader.
bool isDropped(const QString &tag)
{
    static const QStringList dropped{u"script"_s, u"style"_s,  u"noscript"_s, u"template"_s,
                                     u"svg"_s,    u"head"_s,   u"iframe"_s,   u"object"_s,
                                     u"canvas"_s, u"select"_s, u"math"_s};
    return dropped.contains(tag);
}

bool isBlock(const QString &tag)
{
    static const QStringList blocks{
        u"p"_s,       u"div"_s,     u"section"_s,    u"article"_s, u"header"_s,     u"footer"_s,
        u"main"_s,    u"nav"_s,     u"aside"_s,      u"ul"_s,      u"ol"_s,         u"dl"_s,
        u"table"_s,   u"form"_s,    u"fieldset"_s,   u"figure"_s,  u"figcaption"_s, u"address"_s,
        u"details"_s, u"summary"_s, u"blockquote"_s, u"hr"_s,      u"body"_s,       u"html"_s,
        u"dt"_s,      u"dd"_s,      u"caption"_s};
    return blocks.contains(tag);
}

// Builds the text: collapses whitespace, and turns break requests into at most
// one blank line, never at the start or the end.
class TextBuilder final
{
public:
    void text(QStringView chunk, bool preformatted)
    {
        for (const QChar c : chunk) {
            if (!preformatted && (c.isSpace() && c != QChar(0xA0))) {
                m_pendingSpace = true;
                continue;
            }
            if (c == QChar(0xA0) && !preformatted) {
                put(u' ');
                continue;
            }
            if (preformatted && c == u'\n') {
                m_out.append(u'\n');
                m_pendingSpace = false;
                m_pendingBreaks = 0;
                continue;
            }
            put(c);
        }
    }
    // 1: a new line, 2: a blank line.
    void breakLine(int lines)
    {
        m_pendingBreaks = qMax(m_pendingBreaks, lines);
        m_pendingSpace = false;
    }
    void raw(const QString &prefix) // starts a line's content, e.g. "## " or "- "
    {
        flushBreaks();
        m_out.append(prefix);
        m_pendingSpace = false;
    }
    bool atLineStart() const { return m_out.isEmpty() || m_out.endsWith(u'\n') || m_pendingBreaks > 0; }
    qsizetype size() const { return m_out.size(); }
    QString lastSince(qsizetype position) const { return m_out.mid(position); }

    QString result() const
    {
        QString out = m_out;
        // Lines end without trailing blanks.
        static const QRegularExpression trailing(u"[ \\t]+\\n"_s);
        out.replace(trailing, u"\n"_s);
        return out.trimmed();
    }

private:
    void put(QChar c)
    {
        flushBreaks();
        if (m_pendingSpace && !m_out.isEmpty() && !m_out.endsWith(u'\n') && !m_out.endsWith(u' '))
            m_out.append(u' ');
        m_pendingSpace = false;
        m_out.append(c);
    }
    void flushBreaks()
    {
        if (m_pendingBreaks > 0 && !m_out.isEmpty()) {
            while (m_out.endsWith(u' '))
                m_out.chop(1);
            int existing = 0;
            for (qsizetype i = m_out.size() - 1; i >= 0 && m_out.at(i) == u'\n'; --i)
                ++existing;
            for (int i = existing; i < m_pendingBreaks; ++i)
                m_out.append(u'\n');
        }
        m_pendingBreaks = 0;
    }

    QString m_out;
    bool m_pendingSpace = false;
    int m_pendingBreaks = 0;
};

struct Tag
{
    QString name; // lower case, without '/'
    bool closing = false;
    bool selfClosing = false;
    QString attributes;
};

Tag parseTag(QStringView inside)
{
    Tag tag;
    QStringView rest = inside.trimmed();
    if (rest.startsWith(u'/')) {
        tag.closing = true;
        rest = rest.sliced(1).trimmed();
    }
    if (rest.endsWith(u'/')) {
        tag.selfClosing = true;
        rest.chop(1);
    }
    qsizetype end = 0;
    while (end < rest.size() && (rest.at(end).isLetterOrNumber() || rest.at(end) == u'-'))
        ++end;
    tag.name = rest.first(end).toString().toLower();
    tag.attributes = rest.sliced(end).toString();
    return tag;
}

// The value of the attribute \a name ("href" or "alt": the patterns are compiled once).
QString attribute(const QString &attributes, const QString &name)
{
    const auto patternFor = [](const char *attribute) {
        return QRegularExpression(u"(?:^|\\s)"_s + QLatin1StringView(attribute)
                                      + u"\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s>]+))"_s,
                                  QRegularExpression::CaseInsensitiveOption);
    };
    static const QRegularExpression href = patternFor("href");
    static const QRegularExpression alt = patternFor("alt");
    const QRegularExpression &pattern = name == u"href" ? href : alt;
    const QRegularExpressionMatch match = pattern.match(attributes);
    if (!match.hasMatch())
        return {};
    for (int group = 1; group <= 3; ++group) {
        if (match.capturedLength(group) > 0 || !match.captured(group).isNull())
            return HtmlText::decodeEntities(match.captured(group)).trimmed();
    }
    return {};
}

} // namespace

QString HtmlText::decodeEntities(QStringView text)
{
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar c = text.at(i);
        if (c != u'&') {
            out.append(c);
            ++i;
            continue;
        }
        qsizetype end = i + 1;
        while (end < text.size() && end - i <= 32
               && (text.at(end).isLetterOrNumber() || text.at(end) == u'#'))
            ++end;
        const QStringView name = text.sliced(i + 1, end - i - 1);
        const bool terminated = end < text.size() && text.at(end) == u';';
        char32_t code = 0;
        bool known = false;
        if (name.startsWith(u'#') && name.size() > 1) {
            bool ok = false;
            const bool hex = name.at(1) == u'x' || name.at(1) == u'X';
            const uint value = hex ? name.sliced(2).toUInt(&ok, 16) : name.sliced(1).toUInt(&ok, 10);
            if (ok) {
                known = true;
                code
                    = value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF) ? 0xFFFD : value;
            }
        } else if (const auto it = namedEntities().constFind(name.toString()); it != namedEntities().cend()) {
            known = true;
            code = *it;
        }
        if (!known) {
            out.append(c);
            ++i;
            continue;
        }
        out.append(QString::fromUcs4(&code, 1));
        i = terminated ? end + 1 : end;
    }
    return out;
}

QString HtmlText::title(const QString &html)
{
    static const QRegularExpression pattern(u"<title[^>]*>(.*?)</title\\s*>"_s,
                                            QRegularExpression::CaseInsensitiveOption
                                                | QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = pattern.match(html);
    return match.hasMatch() ? decodeEntities(match.captured(1)).simplified() : QString();
}

QString HtmlText::toText(const QString &html, const QUrl &baseUrl)
{
    TextBuilder out;
    QString dropping; // the element whose content is skipped, until it closes
    int preDepth = 0; // inside <pre>: whitespace is kept
    struct OpenLink
    {
        QString href;
        qsizetype start = 0;
    };
    QList<OpenLink> links;
    QList<QString> lists; // "ul" or "ol", innermost last
    QList<int> counters;  // item numbers of the open "ol"s

    const QStringView source(html);
    qsizetype i = 0;
    while (i < source.size()) {
        const qsizetype open = source.indexOf(u'<', i);
        const qsizetype textEnd = open < 0 ? source.size() : open;
        if (textEnd > i && dropping.isEmpty())
            out.text(decodeEntities(source.sliced(i, textEnd - i)), preDepth > 0);
        if (open < 0)
            break;
        i = open;

        if (source.sliced(i).startsWith(u"<!--")) {
            const qsizetype end = source.indexOf(u"-->", i + 4);
            i = end < 0 ? source.size() : end + 3;
            continue;
        }
        if (source.sliced(i).startsWith(u"<!") || source.sliced(i).startsWith(u"<?")) {
            const qsizetype end = source.indexOf(u'>', i);
            i = end < 0 ? source.size() : end + 1;
            continue;
        }
        // A '<' that starts no tag ("a < b") is text.
        if (i + 1 >= source.size() || !(source.at(i + 1).isLetter() || source.at(i + 1) == u'/')) {
            if (dropping.isEmpty())
                out.text(u"<", preDepth > 0);
            ++i;
            continue;
        }
        // The tag ends at the first '>' outside quotes.
        qsizetype end = i + 1;
        QChar quote;
        for (; end < source.size(); ++end) {
            const QChar c = source.at(end);
            if (!quote.isNull()) {
                if (c == quote)
                    quote = QChar();
            } else if (c == u'"' || c == u'\'') {
                quote = c;
            } else if (c == u'>') {
                break;
            }
        }
        const Tag tag = parseTag(source.sliced(i + 1, qMin(end, source.size()) - i - 1));
        i = qMin(end + 1, source.size());

        if (!dropping.isEmpty()) {
            if (tag.closing && tag.name == dropping)
                dropping.clear();
            continue;
        }
        if (!tag.closing && !tag.selfClosing && isDropped(tag.name)) {
            dropping = tag.name;
            continue;
        }

        const QString &name = tag.name;
        if (name.size() == 2 && name.at(0) == u'h' && name.at(1) >= u'1' && name.at(1) <= u'6') {
            out.breakLine(2);
            if (!tag.closing)
                out.raw(QString(name.at(1).digitValue(), u'#') + u' ');
        } else if (name == u"br") {
            out.breakLine(1);
        } else if (name == u"pre") {
            out.breakLine(2);
            preDepth = qMax(0, preDepth + (tag.closing ? -1 : 1));
        } else if (name == u"li") {
            out.breakLine(1);
            if (!tag.closing) {
                const QString indent((qMax<qsizetype>(1, lists.size()) - 1) * 2, u' ');
                if (!lists.isEmpty() && lists.constLast() == u"ol" && !counters.isEmpty())
                    out.raw(indent + QString::number(++counters.last()) + u". ");
                else
                    out.raw(indent + u"- "_s);
            }
        } else if (name == u"ul" || name == u"ol") {
            out.breakLine(lists.isEmpty() ? 2 : 1);
            if (!tag.closing) {
                lists.append(name);
                if (name == u"ol")
                    counters.append(0);
            } else if (!lists.isEmpty()) {
                if (lists.takeLast() == u"ol" && !counters.isEmpty())
                    counters.removeLast();
            }
        } else if (name == u"tr") {
            out.breakLine(1);
        } else if (name == u"td" || name == u"th") {
            if (!tag.closing && !out.atLineStart())
                out.text(u" | ", true);
        } else if (name == u"a") {
            if (!tag.closing) {
                links.append({attribute(tag.attributes, u"href"_s), out.size()});
            } else if (!links.isEmpty()) {
                const OpenLink link = links.takeLast();
                QString href = link.href;
                if (!href.isEmpty() && !href.startsWith(u'#')
                    && !href.startsWith(u"javascript:"_s, Qt::CaseInsensitive)) {
                    const QUrl resolved = baseUrl.isValid() ? baseUrl.resolved(QUrl(href)) : QUrl(href);
                    href = resolved.toString();
                    const QString text = out.lastSince(link.start).trimmed();
                    if (text.isEmpty())
                        out.text(href, true);
                    else if (text != href)
                        out.text(QString(u" ("_s + href + u')'), true);
                }
            }
        } else if (name == u"img") {
            const QString alt = attribute(tag.attributes, u"alt"_s);
            if (!alt.isEmpty())
                out.text(QString(u"[image: "_s + alt + u']'), true);
        } else if (isBlock(name)) {
            out.breakLine(2);
        }
    }
    return out.result();
}

} // namespace Loopscope
