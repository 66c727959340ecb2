#include "agent/providers/toolresulttext.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

QString flaglessToolResultText(const Message &result)
{
    if (!result.isError || result.text.startsWith(u"Error:", Qt::CaseInsensitive))
        return result.text;
    return u"Error: "_s + result.text;
}

} // namespace Loopscope
