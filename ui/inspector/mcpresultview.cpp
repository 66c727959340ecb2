#include "ui/inspector/mcpresultview.h"

#include "agent/mcp/mcpclient.h"
#include "agent/mcp/mcpcontent.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// A raw answer may be megabytes of base64: the view shows its beginning.
constexpr qsizetype RawChars = 200 * 1024;

QString pre(const QString &text)
{
    return u"<pre style=\"white-space: pre-wrap\">%1</pre>"_s.arg(text.toHtmlEscaped());
}

QString prettyJson(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented));
    return value.toVariant().toString();
}

} // namespace

McpResultView::McpResultView(QWidget *parent)
    : QTextBrowser(parent)
{
    setOpenLinks(false);
    setAccessibleName(tr("Answer"));
}

QString McpResultView::contentItemHtml(const QJsonObject &item)
{
    const QString type = item.value("type"_L1).toString();
    if (type == "text"_L1) {
        m_summary += item.value("text"_L1).toString() + u'\n';
        return pre(item.value("text"_L1).toString());
    }
    if (type == "image"_L1) {
        const QByteArray bytes = QByteArray::fromBase64(item.value("data"_L1).toString().toLatin1());
        QImage image;
        if (!image.loadFromData(bytes)) {
            const QString text
                = tr("An image (%1) that could not be read.").arg(item.value("mimeType"_L1).toString());
            m_summary += text + u'\n';
            return u"<p><i>%1</i></p>"_s.arg(text.toHtmlEscaped());
        }
        const QUrl url(u"mcp-image:%1"_s.arg(++m_images));
        document()->addResource(QTextDocument::ImageResource, url, image);
        m_summary += tr("[image %1×%2]").arg(image.width()).arg(image.height()) + u'\n';
        return u"<p><img src=\"%1\"></p>"_s.arg(url.toString());
    }
    const QString text = McpContent::itemText(item);
    m_summary += text + u'\n';
    return pre(text);
}

QString McpResultView::rawHtml(const QJsonObject &json) const
{
    QString raw = prettyJson(json);
    if (raw.size() > RawChars)
        raw = raw.left(RawChars) + u'\n' + tr("… (%n more characters)", nullptr, int(raw.size() - RawChars));
    return u"<h4>%1</h4>%2"_s.arg(tr("As received").toHtmlEscaped(), pre(raw));
}

void McpResultView::present(const QString &heading, const QString &body, const QJsonObject &raw)
{
    m_summary.prepend(heading + u'\n');
    setHtml(
        u"<h3>%1</h3>%2%3"_s.arg(heading.toHtmlEscaped(), body, raw.isEmpty() ? QString() : rawHtml(raw)));
}

void McpResultView::showCall(const McpCallOutcome &outcome)
{
    clear();
    m_summary.clear();
    m_images = 0;
    if (!outcome.failure.isEmpty()) {
        showFailure(outcome.failure);
        return;
    }
    QString body;
    for (const QJsonValue &item : outcome.result.value("content"_L1).toArray())
        body += contentItemHtml(item.toObject());
    if (outcome.result.contains("structuredContent"_L1)) {
        const QString structured = prettyJson(outcome.result.value("structuredContent"_L1));
        m_summary += structured + u'\n';
        body += u"<h4>%1</h4>%2"_s.arg(tr("Structured content").toHtmlEscaped(), pre(structured));
    }
    const QString heading
        = outcome.isError ? tr("The tool reported an error (isError) after %1 ms").arg(outcome.durationMs)
                          : tr("Result after %1 ms").arg(outcome.durationMs);
    present(heading, body, outcome.result);
}

void McpResultView::showResource(const QString &uri, const QJsonObject &result)
{
    clear();
    m_summary.clear();
    m_images = 0;
    QString body;
    for (const QJsonValue &value : result.value("contents"_L1).toArray()) {
        const QJsonObject content = value.toObject();
        const QString mimeType = content.value("mimeType"_L1).toString();
        if (content.contains("text"_L1)) {
            body += contentItemHtml({{u"type"_s, u"text"_s}, {u"text"_s, content.value("text"_L1)}});
        } else if (mimeType.startsWith("image/"_L1)) {
            body += contentItemHtml(
                {{u"type"_s, u"image"_s}, {u"mimeType"_s, mimeType}, {u"data"_s, content.value("blob"_L1)}});
        } else {
            body += contentItemHtml({{u"type"_s, u"resource"_s}, {u"resource"_s, content}});
        }
    }
    present(tr("Contents of %1").arg(uri), body, result);
}

void McpResultView::showPrompt(const QString &name, const QJsonObject &result)
{
    clear();
    m_summary.clear();
    m_images = 0;
    QString body;
    if (const QString description = result.value("description"_L1).toString(); !description.isEmpty())
        body += u"<p>%1</p>"_s.arg(description.toHtmlEscaped());
    for (const QJsonValue &value : result.value("messages"_L1).toArray()) {
        const QJsonObject message = value.toObject();
        const QString role = message.value("role"_L1).toString();
        m_summary += role + u": "_s;
        body += u"<h4>%1</h4>"_s.arg(role.toHtmlEscaped());
        body += contentItemHtml(message.value("content"_L1).toObject());
    }
    present(tr("Prompt %1").arg(name), body, result);
}

void McpResultView::showFailure(const QString &sentence)
{
    clear();
    m_images = 0;
    m_summary = sentence;
    setHtml(u"<p style=\"color: #b00020\">%1</p>"_s.arg(sentence.toHtmlEscaped()));
}

void McpResultView::showWaiting(const QString &sentence)
{
    clear();
    m_images = 0;
    m_summary = sentence;
    setHtml(u"<p><i>%1</i></p>"_s.arg(sentence.toHtmlEscaped()));
}

} // namespace Loopscope::Ui
