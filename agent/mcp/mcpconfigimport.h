#pragma once

#include "agent/mcp/mcpserverconfig.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace Loopscope {

/*!
    MCP servers read from another app's configuration, so a user who set them
    up for Claude Desktop, Claude Code (.mcp.json), Cursor, LM Studio or VS Code
    does not type them again. Entries that cannot be used (the old HTTP+SSE
    transport, no command and no URL) are skipped with a note; what needs a
    hand (VS Code's ${input:…}, ${workspaceFolder}) is imported with a note.
    Imported servers are enabled and ask before every tool call. Names that
    clash with servers already configured are for the caller to resolve
    (uniqueName()).
*/
struct McpConfigImport
{
    QList<McpServerConfig> servers;
    QStringList notes; // sentences, one per skipped entry or thing to check
    QString error;     // the whole file could not be read; a sentence naming it

    static McpConfigImport fromJson(const QByteArray &json, const QString &sourceName);
    static McpConfigImport fromFile(const QString &path);
    // Where Claude Desktop keeps its configuration on this OS (the file may not exist).
    static QString claudeDesktopConfigPath();

    // \a name, or "name (2)", "name (3)", … when taken.
    static QString uniqueName(const QString &name, const QStringList &taken);
};

} // namespace Loopscope
