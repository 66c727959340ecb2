#include "ui/chat/attachmentchip.h"

#include "agent/conversation/attachmentdescription.h"

#include "ui/chat/chatsurface.h"

#include <QBuffer>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImageReader>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPixmap>
#include <QStandardPaths>
#include <QStyle>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// The image decoded at thumbnail size (JPEG decodes scaled, so a large photo stays cheap).
QPixmap thumbnailOf(const Attachment &attachment, int side)
{
    QBuffer buffer;
    buffer.setData(attachment.bytes);
    QImageReader reader(&buffer);
    const QSize size = reader.size();
    if (size.isValid())
        reader.setScaledSize(size.scaled(side, side, Qt::KeepAspectRatio).expandedTo({1, 1}));
    const QImage image = reader.read();
    return image.isNull() ? QPixmap() : QPixmap::fromImage(image);
}

// A name safe as a file name: no folder, never empty; a PDF or other document kept as its text is a .txt.
QString copyName(const Attachment &attachment)
{
    QString name = QFileInfo(attachment.name).fileName();
    if (name.isEmpty() || name.startsWith(u'.'))
        name.prepend(u"attachment"_s);
    if (!attachment.isImage() && !attachment.mimeType.startsWith(u"text/"_s)
        && attachment.mimeType != u"application/json"_s)
        name += u".txt"_s;
    return name;
}

} // namespace

AttachmentChip::AttachmentChip(const Attachment &attachment, const QString &path, bool removable,
                               QWidget *parent)
    : QFrame(parent)
    , m_attachment(attachment)
    , m_path(path)
    , m_thumbnail(new QLabel(this))
{
    setFrameShape(QFrame::StyledPanel);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setCursor(Qt::PointingHandCursor);
    setFocusPolicy(Qt::TabFocus);
    setAccessibleName(tr("Attachment %1").arg(attachment.name));
    setToolTip(tr("Open %1").arg(attachment.name));
    setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);

    const int side = 2 * fontMetrics().height();
    m_thumbnail->setFixedSize(side, side);
    m_thumbnail->setAlignment(Qt::AlignCenter);
    const QPixmap pixmap = attachment.isImage() ? thumbnailOf(attachment, side) : QPixmap();
    if (!pixmap.isNull())
        m_thumbnail->setPixmap(pixmap);
    else
        m_thumbnail->setPixmap(
            QIcon::fromTheme(attachment.isImage() ? u"image-x-generic"_s : u"text-x-generic"_s,
                             style()->standardIcon(QStyle::SP_FileIcon))
                .pixmap(side * 3 / 4));

    auto *name = new QLabel(fontMetrics().elidedText(attachment.name, Qt::ElideMiddle, 14 * side / 2), this);
    auto *details = new QLabel(description(), this);
    details->setForegroundRole(QPalette::PlaceholderText);
    QFont small = details->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    details->setFont(small);

    auto *text = new QVBoxLayout;
    text->setContentsMargins(0, 0, 0, 0);
    text->setSpacing(0);
    text->addWidget(name);
    text->addWidget(details);

    auto *layout = new QHBoxLayout(this);
    const int margin = chatSpacing(this, 0.25);
    layout->setContentsMargins(margin, margin, margin, margin);
    layout->setSpacing(chatSpacing(this, 0.4));
    layout->addWidget(m_thumbnail);
    layout->addLayout(text);

    if (removable) {
        m_remove = new QToolButton(this);
        m_remove->setAutoRaise(true);
        m_remove->setIcon(QIcon::fromTheme(u"edit-delete-remove"_s, QIcon::fromTheme(u"window-close"_s)));
        if (m_remove->icon().isNull())
            m_remove->setText(u"✕"_s);
        m_remove->setToolTip(tr("Remove %1 from the message").arg(attachment.name));
        m_remove->setAccessibleName(m_remove->toolTip());
        m_remove->setCursor(Qt::ArrowCursor);
        connect(m_remove, &QToolButton::clicked, this, &AttachmentChip::removeRequested);
        layout->addWidget(m_remove, 0, Qt::AlignTop);
    }
}

QString AttachmentChip::description() const
{
    return describeAttachment(m_attachment);
}

QUrl AttachmentChip::openUrl() const
{
    if (!m_path.isEmpty() && QFileInfo::exists(m_path))
        return QUrl::fromLocalFile(m_path);
    // One folder per attachment (its digest), so two files of the same name never overwrite each other.
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::TempLocation)
                           + u"/loopscope-attachments/"_s + QString::fromLatin1(m_attachment.sha256.left(16));
    if (!QDir().mkpath(folder))
        return {};
    const QString copy = folder + u'/' + copyName(m_attachment);
    if (!QFileInfo::exists(copy)) {
        QFile file(copy);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(m_attachment.isImage() ? m_attachment.bytes : m_attachment.text.toUtf8());
    }
    return QUrl::fromLocalFile(copy);
}

void AttachmentChip::open()
{
    if (const QUrl url = openUrl(); url.isValid())
        QDesktopServices::openUrl(url);
}

void AttachmentChip::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint())) {
        open();
        return;
    }
    QFrame::mouseReleaseEvent(event);
}

void AttachmentChip::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space) {
        open();
        return;
    }
    QFrame::keyPressEvent(event);
}

} // namespace Loopscope::Ui
