#pragma once

#include <QSortFilterProxyModel>

namespace Loopscope::Ui {

/*!
    The JSON-RPC log as the user narrowed it: by method (a part of it, so
    "tools/" keeps tools/list and tools/call with their responses), by
    direction, and by any text in the message.
*/
class McpLogFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    enum class Direction { Both, Sent, Received };

    explicit McpLogFilterModel(QObject *parent = nullptr);

    void setMethod(const QString &method);
    void setDirection(Direction direction);
    void setText(const QString &text);

    // The rows shown, as JSON lines (one message each, oldest first).
    QByteArray jsonLines() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_method;
    Direction m_direction = Direction::Both;
    QString m_text;
};

} // namespace Loopscope::Ui
