#pragma once

#include "agent/tools/builtin/runcommandtool.h"
#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

#include <QPointer>
#include <QStringList>

#include <memory>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

/*! What the built-in tools need from their surroundings. */
struct BuiltinToolContext
{
    Workspace workspace; // the file tools and run_command are confined to it
    // fetch_url's requests go through it, on its thread; without one fetch_url says it has no network.
    QPointer<QNetworkAccessManager> network;
    // fetch_url may reach loopback and private network addresses (the user allowed it).
    bool fetchAllowsPrivateAddresses = false;
    // What run_command hides from its commands and blanks in their output (the API keys).
    CommandSecrets commandSecrets;
};

// The names of the tools that ship with Loopscope, for the CLI's --tools and the settings.
QStringList builtinToolNames();

// Whether the named built-in tool works in the workspace (the file tools and run_command).
bool builtinToolUsesWorkspace(const QString &name);

// A built-in tool by name; nullptr for an unknown name.
std::shared_ptr<const Tool> createBuiltinTool(const QString &name, const BuiltinToolContext &context);
// The same with only a workspace (fetch_url then has no network).
std::shared_ptr<const Tool> createBuiltinTool(const QString &name, const Workspace &workspace);

} // namespace Loopscope
