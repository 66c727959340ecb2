#pragma once

#include <QList>
#include <QSet>
#include <QString>

namespace Loopscope {

/*!
    Providers accept tool names matching ^[a-zA-Z0-9_-]{1,64}$ and each name
    once; MCP servers name their tools as they like and may share names with
    each other or with the built-in tools. This maps every (server, tool) pair
    to a name the model can use: invalid characters become "_", a name offered
    by two servers or taken by a built-in gets the server's name as a prefix
    ("files_read"), and a name too long is cut with a short hash that keeps it
    unique. The same input always gives the same names.
*/
namespace McpToolNames {

struct Source
{
    QString server;
    QString tool; // as the server names it
    bool operator==(const Source &) const = default;
};

constexpr int MaxLength = 64;

// Every character outside [a-zA-Z0-9_-] becomes "_"; an empty name becomes "_".
QString sanitise(const QString &name);
// Whether \a name is one a provider accepts.
bool isValid(const QString &name);
// The model-facing names of \a sources, in their order, unique among themselves and not in \a taken.
QStringList assign(const QList<Source> &sources, const QSet<QString> &taken);

} // namespace McpToolNames

} // namespace Loopscope
