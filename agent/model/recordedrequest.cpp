#include "agent/model/recordedrequest.h"

#include "agent/conversation/samemessage.h"

#include <vector>

namespace Loopscope {

struct RecordedRequest::Link
{
    std::shared_ptr<const Link> base; // null when the request is recorded whole
    qsizetype kept = 0;               // how many of base's messages come first
    QList<Message> added;
    QList<ToolSchema> tools;
    ToolChoice toolChoice = ToolChoice::Auto;
    ModelOptions options;
    qsizetype messageCount = 0;

    Link() = default;
    Link(Link &&) = default;
    Link &operator=(Link &&) = default;
    // A long turn chains one link per call: unchain it in a loop, not with one nested destructor
    // per link.
    ~Link()
    {
        std::shared_ptr<const Link> next = std::move(base);
        while (next && next.use_count() == 1)
            next = std::move(const_cast<Link &>(*next).base); // made non-const in makeLink()
    }
};

std::shared_ptr<const RecordedRequest::Link> RecordedRequest::makeLink(Link link)
{
    return std::make_shared<Link>(std::move(link));
}

RecordedRequest::RecordedRequest(ModelRequest request)
{
    Link link;
    link.messageCount = request.messages.size();
    link.added = std::move(request.messages);
    link.tools = std::move(request.tools);
    link.toolChoice = request.toolChoice;
    link.options = std::move(request.options);
    m_link = makeLink(std::move(link));
}

RecordedRequest RecordedRequest::after(const RecordedRequest &previous, const ModelRequest &previousRequest,
                                       const ModelRequest &request)
{
    Q_ASSERT(previous.messageCount() == previousRequest.messages.size());
    const QList<Message> &before = previousRequest.messages;
    const QList<Message> &now = request.messages;
    qsizetype kept = 0;
    const qsizetype common = std::min(before.size(), now.size());
    while (kept < common && isSameMessage(before.at(kept), now.at(kept)))
        ++kept;
    return keeping(previous, kept, request);
}

RecordedRequest RecordedRequest::extending(const RecordedRequest &previous, const ModelRequest &request)
{
    Q_ASSERT(request.messages.size() >= previous.messageCount());
    return keeping(previous, previous.messageCount(), request);
}

RecordedRequest RecordedRequest::keeping(const RecordedRequest &previous, qsizetype kept,
                                         const ModelRequest &request)
{
    if (kept == 0)
        return RecordedRequest(request);
    ModelRequest rest = request;
    rest.messages = request.messages.sliced(kept);
    // The same tools from call to call: share the list instead of keeping a copy per call.
    if (rest.tools == previous.tools())
        rest.tools = previous.tools();
    return delta(previous, kept, std::move(rest));
}

RecordedRequest RecordedRequest::delta(const RecordedRequest &base, qsizetype kept, ModelRequest rest)
{
    Q_ASSERT(kept >= 0 && kept <= base.messageCount());
    if (kept == 0 || !base.m_link)
        return RecordedRequest(std::move(rest));
    Link link;
    link.base = base.m_link;
    link.kept = kept;
    link.messageCount = kept + rest.messages.size();
    link.added = std::move(rest.messages);
    link.tools = std::move(rest.tools);
    link.toolChoice = rest.toolChoice;
    link.options = std::move(rest.options);
    RecordedRequest recorded;
    recorded.m_link = makeLink(std::move(link));
    return recorded;
}

const RecordedRequest::Link &RecordedRequest::link() const
{
    static const Link empty;
    return m_link ? *m_link : empty;
}

ModelRequest RecordedRequest::whole() const
{
    ModelRequest request;
    const Link &last = link();
    request.tools = last.tools;
    request.toolChoice = last.toolChoice;
    request.options = last.options;
    // From the request recorded whole to this one: each keeps the start of the one before.
    std::vector<const Link *> chain;
    for (const Link *step = &last; step; step = step->base.get())
        chain.push_back(step);
    request.messages.reserve(last.messageCount);
    for (auto step = chain.crbegin(); step != chain.crend(); ++step) {
        request.messages.resize((*step)->kept);
        request.messages += (*step)->added;
    }
    return request;
}

qsizetype RecordedRequest::messageCount() const
{
    return link().messageCount;
}

const QList<ToolSchema> &RecordedRequest::tools() const
{
    return link().tools;
}

ToolChoice RecordedRequest::toolChoice() const
{
    return link().toolChoice;
}

const ModelOptions &RecordedRequest::options() const
{
    return link().options;
}

bool RecordedRequest::isDeltaOf(const RecordedRequest &base) const
{
    return m_link && m_link->base && m_link->base == base.m_link;
}

qsizetype RecordedRequest::keptMessages() const
{
    return link().kept;
}

const QList<Message> &RecordedRequest::addedMessages() const
{
    return link().added;
}

bool RecordedRequest::operator==(const RecordedRequest &other) const
{
    if (m_link == other.m_link)
        return true;
    return messageCount() == other.messageCount() && options() == other.options()
           && toolChoice() == other.toolChoice() && tools() == other.tools() && whole() == other.whole();
}

} // namespace Loopscope
