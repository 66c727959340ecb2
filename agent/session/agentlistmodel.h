#pragma once

#include <QAbstractListModel>

namespace Loopscope {

class AgentStore;

/*!
    The user's agents as a list for views (the Agents page, the toolbar's
    chooser): one row per agent of the store, in the file's order, named and
    with its version; it follows the store's changes.
*/
class AgentListModel final : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role { NameRole = Qt::UserRole + 1, VersionRole, InstructionsRole };

    explicit AgentListModel(const AgentStore *store, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // The row of the agent named \a name, or -1.
    int rowOf(const QString &name) const;

private:
    void onStoreChanged();

    const AgentStore *m_store;
    int m_rows = 0;
};

} // namespace Loopscope
