#pragma once

#include "agent/replay/recordedturn.h"
#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

#include <QCoreApplication>

#include <functional>
#include <memory>

namespace Loopscope {

class Workbench;

/*!
    The tools a replay offers the model must be the ones the recorded turn
    offered, in the same order, or the very first request differs. This
    fills a workbench from the recording: each tool from the caller's
    provider when it has one by that name (a built-in, for instance, so live
    tool runs work), else a stand-in with the recorded schema that can only
    be replayed and answers a live call with an error.
*/
class ReplayWorkbench final
{
    Q_DECLARE_TR_FUNCTIONS(ReplayWorkbench)

public:
    using ToolProvider = std::function<std::shared_ptr<const Tool>(const QString &name)>;

    // Replaces what \a workbench holds with the tools \a turn was offered.
    static void fill(Workbench &workbench, const RecordedTurn &turn, const ToolProvider &provider = {});
    // \a tools, those named in \a handoffTools handing off to their agent as they did.
    static void fill(Workbench &workbench, const QList<ToolSchema> &tools,
                     const QHash<QString, QString> &handoffTools, const ToolProvider &provider = {});
    // The built-in tools by name, the file tools confined to \a workspace: what
    // a replay runs live (`loopscope replay --live-tools`, the replay window).
    // Only those that ask nobody first: write_file, edit_file, run_command and
    // fetch_url are replayed from the recording, never run again unasked.
    static ToolProvider builtinTools(const Workspace &workspace);
};

} // namespace Loopscope
