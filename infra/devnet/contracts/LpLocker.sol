// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// A time lock for LP tokens in the shape of the common lockers (UNCX's UniswapV2Locker keeps the
/// same public `tokenLocks` array and `getNumLocksForToken` view): anyone locks an amount of a token
/// until a time, and only the lock's owner withdraws it, only once that time has passed. Readers
/// take each lock's unlock date from the view, not the locker's word that the tokens are locked.
contract LpLocker {
    struct TokenLock {
        uint256 lockDate;
        uint256 amount;
        uint256 initialAmount;
        uint256 unlockDate;
        uint256 lockID;
        address owner;
    }

    mapping(address => TokenLock[]) public tokenLocks;

    function getNumLocksForToken(address token) external view returns (uint256) {
        return tokenLocks[token].length;
    }

    function lock(address token, uint256 amount, uint256 unlockTime) external {
        require(unlockTime > block.timestamp, "unlock time passed");
        require(IERC20(token).transferFrom(msg.sender, address(this), amount), "transfer failed");
        uint256 id = tokenLocks[token].length;
        tokenLocks[token].push(TokenLock(block.timestamp, amount, amount, unlockTime, id, msg.sender));
    }

    function withdraw(address token, uint256 index) external {
        TokenLock storage l = tokenLocks[token][index];
        require(msg.sender == l.owner, "not the lock's owner");
        require(block.timestamp >= l.unlockDate, "still locked");
        uint256 amount = l.amount;
        l.amount = 0;
        require(IERC20(token).transfer(msg.sender, amount), "transfer failed");
    }
}
