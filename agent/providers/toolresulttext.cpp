#include "agent/providers/toolresulttext.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

QString flaglessToolResultText(const Message &result)
{
    if (!result.isError || result.text.startsWith(u"Error:", Qt::CaseInsensitive))
        return result.text;
    return u"Error: "_s + result.text;
}

namespace {

QList<Attachment> imagesOf(const Message &message)
{
    if (message.role != Message::Role::Tool)
        return {};
    QList<Attachment> images;
    for (const Attachment &attachment : message.attachments) {
        if (attachment.isImage())
            images.append(attachment);
    }
    return images;
}

// Read by the model, like "Error: ", so not translated.
QString imageCount(qsizetype count)
{
    return count == 1 ? u"1 image"_s : u"%1 images"_s.arg(count);
}

} // namespace

QList<Message> withToolImagesAfterResults(const QList<Message> &messages)
{
    const bool anyImage = std::any_of(messages.cbegin(), messages.cend(),
                                      [](const Message &message) { return !imagesOf(message).isEmpty(); });
    if (!anyImage)
        return messages;
    QList<Message> result;
    result.reserve(messages.size() + 2);
    for (qsizetype i = 0; i < messages.size(); ++i) {
        if (messages.at(i).role != Message::Role::Tool) {
            result.append(messages.at(i));
            continue;
        }
        qsizetype end = i;
        while (end < messages.size() && messages.at(end).role == Message::Role::Tool)
            ++end;
        QList<Attachment> images;
        QStringList sources;
        for (qsizetype m = i; m < end; ++m) {
            Message toolResult = messages.at(m);
            const QList<Attachment> own = imagesOf(toolResult);
            toolResult.attachments.clear();
            if (!own.isEmpty()) {
                const QString note
                    = u"[%1: in the user message after the tool results]"_s.arg(imageCount(own.size()));
                toolResult.text = toolResult.text.isEmpty() ? note : toolResult.text + u"\n\n"_s + note;
                images.append(own);
                sources.append(u"%1 (call %2): %3"_s.arg(toolResult.toolName, toolResult.toolCallId,
                                                         imageCount(own.size())));
            }
            result.append(toolResult);
        }
        if (!images.isEmpty()) {
            result.append(
                Message::user(u"The images in this message are what the tool calls returned: %1."_s.arg(
                                  sources.join(u"; "_s)),
                              images));
        }
        i = end - 1;
    }
    return result;
}

} // namespace Loopscope
