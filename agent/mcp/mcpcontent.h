#pragma once

#include "agent/conversation/attachment.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace Loopscope {

/*!
    Turns what an MCP server returns (tool results, prompt messages, resource
    contents) into the plain text the model and the composer see. Kept apart
    from the client so the rules for each content type are tested on data,
    without a server.
*/
namespace McpContent {

// One content item (text, image, audio, resource_link, resource) as a short text.
QString itemText(const QJsonObject &item);
// A CallToolResult: text items joined with blank lines; without text, structuredContent as
// compact JSON; other items described.
QString callResultText(const QJsonObject &result);

// A CallToolResult as the model gets it: each image (an image item, or an embedded resource whose
// blob is an image) as an attachment named after \a toolName, everything else as callResultText()
// words it. An image that cannot be read stays described, with the reason.
struct CallResult
{
    QString text;
    QList<Attachment> images;
};
CallResult callResult(const QJsonObject &result, const QString &toolName);
// Whether a CallToolResult holds something callResult() may turn into an image.
bool mayHoldImages(const QJsonObject &result);
// \a value (a result, its content, a JSON-RPC response) with the base64 of each of \a images
// replaced by a note naming its sha256: what the trace keeps of the exchange, the image itself
// being the result's attachment, so a session holds its bytes once.
QJsonValue withoutImageData(const QJsonValue &value, const QList<Attachment> &images);

// A GetPromptResult: each message's content, joined with blank lines.
QString promptResultText(const QJsonObject &result);
// A ReadResourceResult: text contents joined with blank lines, blobs described.
QString resourceResultText(const QJsonObject &result);
// A ReadResourceResult as files to attach: each content's text (UTF-8) or blob (decoded), named by
// its URI's file name, else by \a name (the resource's), else by its URI.
struct ResourceFile
{
    QString name;
    QByteArray bytes;

    bool operator==(const ResourceFile &) const = default;
};
QList<ResourceFile> resourceFiles(const QJsonObject &result, const QString &name);

} // namespace McpContent

} // namespace Loopscope
