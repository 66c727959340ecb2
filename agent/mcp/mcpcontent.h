#pragma once

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
// A GetPromptResult: each message's content, joined with blank lines.
QString promptResultText(const QJsonObject &result);
// A ReadResourceResult: text contents joined with blank lines, blobs described.
QString resourceResultText(const QJsonObject &result);

} // namespace McpContent

} // namespace Loopscope
